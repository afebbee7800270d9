// Lifelines: how a program whose C main runs on Node's main thread (host/program.js, mainThread
// 'here') notices a thread's worker that dies while it boots. Its parent (Node's main thread, or
// a thread's worker) would hear of it from its event loop, which does not run while it is in
// wasm. So each such worker gets one end of a MessageChannel (its lifeline, in workerData) and
// one watcher worker, which never runs wasm, holds the other: Node closes that end when the
// worker's thread goes away, however it went (host/platform/lifeline-watcher.js).
import { MessageChannel, Worker } from 'node:worker_threads';

/** A new lifeline for a worker to be created; its other end goes to the watcher by `toWatcher`. */
function newLifeline(toWatcher) {
  const { port1, port2 } = new MessageChannel();
  toWatcher.postMessage({ lifeline: port2 }, [port2]);
  return port1;
}

/**
 * On Node's main thread: `lifeline()` makes a lifeline for each new thread worker (the watcher
 * starts with the first, so a program without threads starts none); `stop()` ends the watcher.
 */
export function lifelineWatcher(control, stderrFd) {
  let watcher = null;
  return {
    lifeline() {
      if (!watcher) {
        // execArgv []: a --import preload that ends workers must not end the watcher too
        watcher = new Worker(new URL('./lifeline-watcher.js', import.meta.url), { workerData: { control, stderrFd }, execArgv: [] });
        watcher.unref(); // it watches the run and must never keep Node running after it
      }
      return newLifeline(watcher);
    },
    stop: () => watcher?.terminate(),
  };
}

/** In a thread's worker: lifelines for the workers it starts, sent on through its own lifeline. */
export const lifelinesThrough = (ownLifeline) => () => newLifeline(ownLifeline);
