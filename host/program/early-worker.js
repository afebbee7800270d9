// A thread worker started before its program exists: its runtime boots and the host's modules
// load while the caller loads the rest of the host, reads the module and compiles it. Passed to
// createProgram/runProgram as `earlyWorker`, it becomes the main thread's worker
// (docs/HOST.md, "Start-up"). This file imports next to nothing, so it can come first.
import { loadThreadWorkers } from './thread-workers.js';

/**
 * Starts the worker. Resolves with { loaded, adopt, terminate, lifeline }: `loaded` settles when
 * the worker's modules are in (or it failed), `adopt(onMessage, onError)` hands its messages to
 * the program and returns the platform's worker, `terminate()` ends a worker no program took.
 * With `{ lifeline: true }` (Node) the worker gets a lifeline from its first step, as the
 * workers of a C main on Node's main thread do (host/threads/lifelines.js), and `lifeline` is
 * its other end, for the program's watcher.
 */
export async function startEarlyWorker({ lifeline = false } = {}) {
  return earlyWorkerOf(await loadThreadWorkers(), { lifeline });
}

/**
 * startEarlyWorker with the platform's thread workers module given (host/program/node-workers.js
 * or browser-workers.js): the worker is made before this returns.
 */
export function earlyWorkerOf(threadWorkers, { lifeline = false } = {}) {
  const ends = lifeline ? new (process.getBuiltinModule('node:worker_threads').MessageChannel)() : null;
  let markLoaded;
  const loaded = new Promise((resolve) => { markLoaded = resolve; });
  let deliver = null;
  let fail = null;
  let failure = null;
  const worker = threadWorkers.createWorker((msg) => {
    if (msg.type === 'loaded') {
      markLoaded();
      // loaded and waiting for a program, it is no reason for Node to wait: a start that
      // stalls after this (a compile that never ends) still fails loudly
      if (!deliver) worker.keepsProcessAlive?.(false);
    }
    else deliver?.(msg); // nothing else comes before the program's init message
  }, (err) => {
    markLoaded();
    if (fail) fail(err);
    else failure = err;
  }, ends?.port1);
  return {
    loaded,
    lifeline: ends?.port2 ?? null,
    adopt(onMessage, onError) {
      if (deliver) throw new Error('earlyWorker: this worker serves a program already');
      worker.keepsProcessAlive?.(true);
      deliver = onMessage;
      fail = onError;
      if (failure) onError(failure);
      return worker;
    },
    terminate: () => worker.terminate(),
  };
}
