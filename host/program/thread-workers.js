// What starts thread workers, in a file of its own that only the coordinator imports: a
// worker whose modules could start the worker that loads them is a circle bundlers refuse
// (docs/HOST.md, "A web app with a bundler").
import { isNode } from '../platform/current.js';

/** host/program/node-workers.js in Node, host/program/browser-workers.js in a browser. */
export const loadThreadWorkers = () => (isNode ? import('./node-workers.js') : import('./browser-workers.js'));
