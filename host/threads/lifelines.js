// Lifelines: how a program whose C main runs on Node's main thread (host/program/program.js, mainThread
// 'here') notices a thread's worker that dies while it boots. Its parent (Node's main thread, or
// a thread's worker) would hear of it from its event loop, which does not run while it is in
// wasm. So each such worker gets one end of a MessageChannel (its lifeline, in workerData) and
// one watcher worker, which never runs wasm, holds the other: Node closes that end when the
// worker's thread goes away, however it went (host/threads/lifeline-watcher.js).
// With the mount addon, a thread's worker also watches itself once its code runs (exitIfVanished
// below), so the watcher, whose own boot takes a core from the program, is started only for
// workers that are still booting while their parent is in wasm.
// (node:worker_threads is loaded by the first lifeline: a run without threads needs none)
import { addonFunction } from '../platform/mount-addon.js';
import { FATE, HEADER, VANISHED_LINE } from './control.js';

const workerThreads = () => process.getBuiltinModule('node:worker_threads');

/** Whether a thread's worker can watch itself here (the addon's exitIfVanished). */
export const workersWatchThemselves = () => addonFunction('exitIfVanished') !== null;

/**
 * In a thread's worker of a program that ends the process (host/program/own-end.js): from now on,
 * this worker going away while the program runs (process.exit in it, its heap's limit, a
 * terminate) writes VANISHED_LINE and ends the process with 134, as the watcher would
 * (host/mount/hostdir/addon/vanish_alarm.c). Returns false where the addon cannot.
 */
export function exitIfVanished(control, stderrFd) {
  const alarm = addonFunction('exitIfVanished');
  if (!alarm) return false;
  alarm(new DataView(control.buffer, control.byteOffset), HEADER.FATE * 4, FATE.RUNNING, stderrFd, VANISHED_LINE);
  return true;
}

/**
 * Creates a worker by `create(lifeline)` and then hands the lifeline's other end on by
 * `toWatcher`: the thread's worker starts first, ahead of a watcher that starts with it.
 */
function withLifeline(create, toWatcher) {
  const { port1, port2 } = new (workerThreads().MessageChannel)();
  const worker = create(port1);
  toWatcher().postMessage({ lifeline: port2 }, [port2]);
  return worker;
}

/**
 * On Node's main thread: `watched(create)` creates a thread's worker with a lifeline (the
 * watcher starts with the first, so a program without threads starts none); `stop()` ends it.
 * A vanished worker ends the process (`endsProcess`, with its line on `stderrFd`), or, for
 * --fs=js's host thread, which looks at the program's fate while it waits, sets that fate.
 */
export function lifelineWatcher(control, { endsProcess, stderrFd }) {
  let watcher = null;
  const started = () => {
    if (!watcher) {
      // execArgv []: a --import preload that ends workers must not end the watcher too
      watcher = new (workerThreads().Worker)(new URL('./lifeline-watcher.js', import.meta.url), { workerData: { control, stderrFd, endsProcess }, execArgv: [] });
      watcher.unref(); // it watches the run and must never keep Node running after it
    }
    return watcher;
  };
  return {
    watched: (create) => withLifeline(create, started),
    // A worker made earlier with its lifeline (host/program/early-worker.js): the watcher takes the
    // lifeline's other end. False where the worker has died already: its end is closed and Node
    // refuses to send the other; its 'exit' event may reach this thread only once main is in wasm.
    adopted: (otherEnd) => {
      try {
        started().postMessage({ lifeline: otherEnd }, [otherEnd]);
        return true;
      } catch {
        return false;
      }
    },
    stop: () => watcher?.terminate(),
  };
}

/** In a thread's worker: `watched(create)` for the workers it starts, through its own lifeline. */
export const lifelinesThrough = (ownLifeline) => ({ watched: (create) => withLifeline(create, () => ownLifeline) });
