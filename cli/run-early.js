// `spindle run` in Node starts the main thread's worker before it loads anything else: the
// worker's boot (~30 ms of a core) is on the way to main, while the CLI's and the host's
// modules load beside it (docs/HOST.md, "Start-up"). Only the arguments are looked at here;
// cli/run.js parses them and adopts the worker.
import { startEarlyWorker } from '../host/early-worker.js';

/**
 * The early worker for a `spindle run` with these arguments, or null where the run may not
 * need one (`--browser`, help). A word that only looks like such an option (a program's
 * argument) just means no early start: cli/run.js then starts the worker itself.
 */
export function earlyWorkerForRun(argv) {
  if (argv.some((a) => a === '--browser' || a === '--help' || a === '-h')) return null;
  const started = startEarlyWorker();
  // run.js awaits it and reports a failure; a run that ends before that (a bad option) must
  // not turn it into an unhandled rejection
  started.catch(() => {});
  return started;
}
