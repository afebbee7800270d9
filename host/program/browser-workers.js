// The browser's thread workers, apart from the rest of browser.js so that a thread's worker,
// which loads the platform, never loads the module that starts thread workers: bundlers
// (Vite) refuse such a circle of workers (docs/HOST.md, "A web app with a bundler"). The
// `new Worker(new URL(..., import.meta.url), { type: 'module' })` form is what they find.

/** Creates a module worker running host/program/thread-worker.js. */
export function createWorker(onMessage, onError) {
  const worker = new Worker(new URL('./thread-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (e) => onMessage(e.data);
  worker.onerror = (e) => { e.preventDefault(); onError(new Error(e.message || 'worker failed to load')); };
  return { post: (msg) => worker.postMessage(msg), terminate: () => worker.terminate() };
}
