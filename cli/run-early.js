// `spindle run` in Node starts the main thread's worker before it loads anything else: the
// worker's boot (~30 ms of a core) is on the way to main, while the CLI's and the host's
// modules load beside it (docs/HOST.md, "Start-up"). Only the arguments are looked at here;
// cli/run.js parses them and adopts the worker.
import { startEarlyWorker } from '../host/early-worker.js';
import { mainRunsHere } from './main-thread-choice.js';

/**
 * Resolves with the early worker for a `spindle run` with these arguments once it is made, or
 * with null where the run may not need one (`--browser`, help, a C main on this thread). A word that only looks like
 * such an option (a program's argument) just means no early start: cli/run.js then starts the
 * worker itself.
 */
export async function earlyWorkerForRun(argv) {
  if (argv.some((a) => a === '--browser' || a === '--help' || a === '-h') || mainRunsHere(argv)) return null;
  return startEarlyWorker();
}
