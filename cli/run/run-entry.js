// The entry of `spindle run`'s bundle (scripts/build-run-bundle.js, cli/run/run-bundle.js): the run
// path of cli/main.js, whose threads' workers start from the thread worker's bundle.
import { earlyStart } from './run-early.js';
import { run } from './run.js';

/** Runs `spindle run args`; `threadWorker`: the URL of the thread worker's bundle. */
export async function runCommand(args, threadWorker) {
  return run(args, await earlyStart(args, { threadWorker }), 'the bundle (build/bundle)');
}
