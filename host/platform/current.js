// Which host this code runs in, decided in one place: Node (it has process.versions.node) or a
// browser (anything else), and the platform module that serves it.
export const isNode = typeof process !== 'undefined' && Boolean(process.versions?.node);

// Each import names its file literally, so bundlers find both.
/** host/platform/node.js in Node, host/platform/browser.js in a browser. */
export const loadPlatform = () => (isNode ? import('./node.js') : import('./browser.js'));
