// Where `spindle run` in Node runs the C main: on Node's main thread by default, so no worker
// boots on the way to main (docs/HOST.md, "Start-up"); in a worker of its own where the run needs
// the main thread's event loop while main runs (--wait-for-pool),
// where the mount addon that ends the process from any thread is missing, where Node's main
// thread has a smaller stack than a worker's, or with SPINDLE_MAIN_THREAD=worker.
import { processExit } from '../../host/platform/process-exit.js';
import { mainStackAsWorkers } from '../common/main-stack.js';
import { RUN_OPTIONS } from './run-options.js';

// (--mount's host directories are called from each thread itself, and --preload's files are put
// in by main's own thread: main stays here for both)
const NEEDS_WORKER = RUN_OPTIONS.filter((option) => option.mainInWorker).map((option) => option.flag);

/**
 * Whether the C main of `spindle run argv` runs here. Decided from the words alone, before the
 * arguments are parsed: a program argument that looks like such an option only means a worker.
 */
export function mainRunsHere(argv) {
  if (process.env.SPINDLE_MAIN_THREAD === 'worker') return false;
  if (argv.some((a) => NEEDS_WORKER.some((o) => a === o || a.startsWith(`${o}=`)))) return false;
  return Boolean(processExit()) && mainStackAsWorkers();
}
