// The watcher worker of host/threads/lifelines.js. A lifeline that closes while the program has
// not ended means that worker's thread went away without ending the program (a thread's worker
// only goes away when the run ends, and then the program's fate is set first): such a run can
// never end by itself (a main joining that thread waits for good), so it ends as a run with main
// in a worker does (host/program/node-workers.js): status 134 and `spindle: worker failed`.
import { parentPort, workerData } from 'node:worker_threads';
import { FATE, programEnded, settleFate, VANISHED_LINE } from './control.js';

const { writeSync } = process.getBuiltinModule('node:fs');

const { control, stderrFd, endsProcess } = workerData;

async function workerVanished() {
  if (programEnded(control)) return;
  // --fs=js: the C main's waits check the fate every millisecond and unwind (host/jsfs/host-thread.js);
  // the coordinator's event loop then hears the worker's exit and reports it, and the process lives on.
  if (!endsProcess) {
    settleFate(control, FATE.TRAPPED, 134);
    return;
  }
  // Loaded only now: a run that needs no alarm loads nothing more here.
  const exitNow = (await import('../platform/process-exit.js')).processExit();
  if (programEnded(control)) return;
  // (its exit code is not known here: the Worker object that hears it lives on the parent's event loop)
  writeSync(stderrFd, VANISHED_LINE);
  exitNow(134);
}

function watch(lifeline) {
  lifeline.on('message', (msg) => watch(msg.lifeline)); // the workers this worker starts
  lifeline.on('close', workerVanished);
}

parentPort.on('message', (msg) => watch(msg.lifeline));
