// A thread worker's reports where the program's C main runs on Node's main thread
// (host/program/program.js, mainThread 'here'). That thread may sit in wasm (a wait, a loop) and read
// no message, so the worker acts on its own reports: it ends the whole process itself when its
// thread exits or fails, and starts, as its own children, the workers its threads ask for.
import { workerData } from 'node:worker_threads';
import { HEADER } from '../threads/control.js';
import { trapReport } from '../threads/trap-text.js';
import { writeAllSync } from '../platform/node.js';
import { createWorker } from './node-workers.js';
import { exitIfVanished, lifelinesThrough, lifelineWatcher } from '../threads/lifelines.js';
import { processExit } from '../platform/process-exit.js';

// (a child's lifeline always reaches a watcher, through this worker's or its own)
const WATCHED = new Int32Array(new SharedArrayBuffer(4)).fill(1);

/** `post` for a thread in this worker; `toHost` still takes the reports nobody acts on. */
export function ownEnd(init, toHost) {
  const exitNow = processExit();
  if (!exitNow) return toHost; // (the coordinator chose this only with the addon's exit)
  // before this worker reports itself ready: its parent then needs no watcher for it
  exitIfVanished(init.control, init.io.stderrFd ?? 2);
  // The workers this worker's threads want get lifelines: through this worker's own to the run's
  // watcher where that holds it, else (an early worker that was ready before main started, which
  // no watcher took: host/program/program.js) to a watcher of this worker's, started with the first.
  const throughOwn = workerData?.lifeline ? lifelinesThrough(workerData.lifeline) : null;
  const ownIsWatched = () => !init.lifelineWatched || Atomics.load(init.lifelineWatched, 0) === 1;
  let ownWatcher = null;
  const watcherFor = () => {
    if (throughOwn && ownIsWatched()) return throughOwn;
    ownWatcher ??= lifelineWatcher(init.control, { endsProcess: true, stderrFd: init.io.stderrFd ?? 2 });
    return ownWatcher;
  };
  const fail = (text) => {
    writeAllSync(init.io.stderrFd ?? 2, new TextEncoder().encode(`spindle: ${text}\n`));
    exitNow(134);
  };
  const post = (msg) => {
    switch (msg.type) {
      case 'fate': exitNow(Atomics.load(init.control, HEADER.EXIT_CODE)); break;
      case 'trap': fail(trapReport(msg)); break;
      case 'failed': fail(msg.message); break;
      case 'start-worker': {
        const create = (lifeline) => createWorker(() => {}, (err) => fail(`worker failed: ${err.message}`), lifeline);
        const worker = watcherFor().watched(create);
        worker.post({ ...init, slot: msg.slot, lifelineWatched: WATCHED });
        break;
      }
      default: toHost(msg);
    }
  };
  return post;
}
