// A thread worker's reports where the program's C main runs on Node's main thread
// (host/program/program.js, mainThread 'here'). That thread may sit in wasm (a wait, a loop) and read
// no message, so the worker acts on its own reports: it ends the whole process itself when its
// thread exits or fails, and starts, as its own children, the workers its threads ask for.
import { workerData } from 'node:worker_threads';
import { HEADER } from '../threads/control.js';
import { trapReport } from '../threads/trap-text.js';
import { writeAllSync } from '../platform/node.js';
import { createWorker } from './node-workers.js';
import { exitIfVanished, lifelinesThrough } from '../threads/lifelines.js';
import { processExit } from '../platform/process-exit.js';

/** `post` for a thread in this worker; `toHost` still takes the reports nobody acts on. */
export function ownEnd(init, toHost) {
  const exitNow = processExit();
  if (!exitNow) return toHost; // (the coordinator chose this only with the addon's exit)
  // before this worker reports itself ready: its parent then needs no watcher for it
  exitIfVanished(init.control, init.io.stderrFd ?? 2);
  const watcher = workerData?.lifeline ? lifelinesThrough(workerData.lifeline) : null;
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
        const worker = watcher?.watched(create) ?? create();
        worker.post({ ...init, slot: msg.slot });
        break;
      }
      default: toHost(msg);
    }
  };
  return post;
}
