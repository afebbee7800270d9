// Node's thread workers, apart from the rest of node.js so that a thread's worker, which loads
// the platform, never loads the module that starts thread workers (bundlers refuse such a
// circle of workers: docs/HOST.md, "A web app with a bundler").

// A thread's worker runs wasm and a little glue; its JS heap stays small. A cap on the old
// generation makes V8 size the heap for that: about 1 MiB less resident memory per idle thread
// (~9.4 -> ~8.2 MiB measured, docs/HOST.md). Buffers are not part of it.
const threadHeapLimits = { maxOldGenerationSizeMb: 64 };

// The fds a thread opens with node:fs (a mount's files and kept directories) belong to the
// mount's handle tables, which the coordinator closes at dispose(), after the workers are gone.
// Node's default, closing a worker's fds when it exits, made that a second close of numbers the
// process may have given out again, such as a new worker's event-loop fd (a SIGABRT or a hang,
// docs/HOST.md "Who closes a thread's fds"). (The I/O workers of host/mount/hostdir do the same.)
const ownFds = { trackUnmanagedFds: false };

// The thread worker's script: host/program/thread-worker.js, or the CLI's bundle of it, run by a
// loader of the CLI's (cli/run/script-cache.js, workerScript).
const threadWorkerScript = new URL('./thread-worker.js', import.meta.url);
let scriptLoader = null;

/**
 * Thread workers created from now on start from the file `loader.loader`, which runs a bundle of
 * host/program/thread-worker.js from what `loader.workerData()` gives each worker (its
 * workerData.script); `loader.settle()` runs before a worker is ended.
 */
export function useThreadWorkerScript(loader) {
  scriptLoader = loader;
}

/** Creates a worker running host/program/thread-worker.js; `lifeline`: a MessagePort or undefined. */
export function createWorker(onMessage, onError, lifeline) {
  // (node:worker_threads is loaded by the first worker: a run without threads needs none of it)
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  // A lifeline (host/threads/lifelines.js) goes in workerData, not a message: its end is then the
  // worker's from its first step, and closes even when the worker dies before its own code runs.
  const workerData = { ...(lifeline ? { lifeline } : {}), ...(scriptLoader ? { script: scriptLoader.workerData() } : {}) };
  const worker = new Worker(scriptLoader ? scriptLoader.loader : threadWorkerScript,
    { resourceLimits: threadHeapLimits, ...ownFds, workerData, transferList: lifeline ? [lifeline] : [] });
  worker.on('message', onMessage);
  worker.on('error', onError);
  // A thread's worker waits for messages until the coordinator ends it: any other exit, with
  // code 0 too, means a thread (perhaps main) vanished and the program can never end by itself.
  worker.on('exit', (code) => {
    if (!worker.terminating) onError(new Error(`worker exited with code ${code} before the program ended`));
  });
  return {
    post: (msg) => worker.postMessage(msg),
    // (the worker that keeps the bundle's code first finishes writing it)
    terminate: () => { scriptLoader?.settle(); worker.terminating = true; return worker.terminate(); },
    // whether the worker alone keeps Node running (a worker started early, waiting for its
    // program, must not: a run that stalls before it must still end, docs/HOST.md)
    keepsProcessAlive: (yes) => (yes ? worker.ref() : worker.unref()),
  };
}
