// A page's compile from a URL or a fetch Response (docs/HOST.md, "Cached code in pages"):
// WebAssembly.compileStreaming, the one path on which Chromium keeps a module's optimized code
// in its code cache and gives it to the next visit. Chromium keys that code by the response's
// URL and takes it only with the same response from its HTTP cache (its response time), so the
// module must come from a URL that stays the same for the same bytes, served as
// application/wasm and fresh for long (`Cache-Control: max-age=31536000, immutable`; one
// revalidated each visit, no-cache with an ETag, got the code on one more visit only).
// WebAssembly.compile(bytes) never gets cached code.
// The host still needs the bytes (the imported memory's limits, the preload section), so the
// response is cloned: the clone's body feeds the compile, the original's is read whole.

/**
 * Whether `source` is a fetch Response, or a promise of one (fetch(url) not yet awaited). Read
 * from its tag, not with `instanceof Response`: in Node the first look at the global `Response`
 * loads Node's whole fetch (http, tls, http2: ~100 ms of a run that compiles bytes).
 */
export function isResponseSource(source) {
  return Object.prototype.toString.call(source) === '[object Response]' || typeof source?.then === 'function';
}

/**
 * Compiles `source` (a URL, a Response or a promise of one) in a browser. Resolves { bytes,
 * compiling, codeCache } once the bytes are in: `compiling` is the compile's promise of the
 * module (so that the caller checks the bytes first, and a module that is not one fails with
 * the host's message, as in Node); codeCache says whether Chromium may cache the code
 * ('browser: streamed from URL') or why not (a response that is not application/wasm is
 * compiled from its bytes, as WebAssembly.compileStreaming would refuse it).
 */
export async function compileFromResponse(source) {
  const label = typeof source === 'string' || source instanceof URL ? String(source) : null;
  const response = await (label === null ? source : fetch(source));
  if (!(response instanceof Response)) throw new Error('compile: expected wasm bytes, a URL, a Response or a promise of one');
  const where = label ?? (response.url || 'the response');
  if (!response.ok) throw new Error(`fetching ${where}: HTTP ${response.status}`);
  const type = response.headers.get('Content-Type');
  if (type?.toLowerCase() !== 'application/wasm' || typeof WebAssembly.compileStreaming !== 'function') {
    const bytes = new Uint8Array(await response.arrayBuffer());
    const why = typeof WebAssembly.compileStreaming !== 'function' ? 'this browser has no WebAssembly.compileStreaming'
      : `${where} was served as ${type ?? 'no type'}, not application/wasm`;
    return { bytes, compiling: settledLater(() => WebAssembly.compile(bytes)), codeCache: `off: ${why}` };
  }
  const compiling = settledLater(() => WebAssembly.compileStreaming(response.clone()));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, compiling, codeCache: `browser: streamed from ${response.url || where}` };
}

// A compile's promise that may be awaited later, or never (the bytes failed their checks): its
// rejection is not reported as unhandled meanwhile.
function settledLater(start) {
  const compiling = start();
  compiling.catch(() => {});
  return compiling;
}
