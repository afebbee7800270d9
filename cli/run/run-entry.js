// The entry of `spindle run`'s bundle (scripts/build-run-bundle.js, cli/run/run-bundle.js): the run
// path of cli/main.js, whose threads' workers start from the thread worker's bundle.
import { earlyStart } from './run-early.js';
import { run } from './run.js';

/**
 * Runs `spindle run args`; `threadWorker`: the URL of the thread worker's bundle, `scriptCache`:
 * whether this bundle's code came from its cache (cli/run/script-cache.js), `afterProgram`: called
 * once the program has ended.
 */
export async function runCommand(args, threadWorker, { scriptCache, afterProgram }) {
  const early = await earlyStart(args, { threadWorker });
  return run(args, early, `the bundle (build/bundle; its V8 code: ${scriptCache})`, afterProgram);
}
