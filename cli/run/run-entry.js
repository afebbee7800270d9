// The entry of `spindle run`'s bundle (scripts/build-run-bundle.js, cli/run/run-bundle.js): the run
// path of cli/main.js, whose threads' workers start from the thread worker's bundle.
import { useThreadWorkerScript } from '../../host/program/node-workers.js';
import { run } from './run.js';

/**
 * Runs `spindle run args`; `threadWorker`: the URL of the thread worker's bundle, `early`: the
 * workers bin/spindle started before it loaded the bundle (cli/run/run-early.js).
 */
export async function runCommand(args, threadWorker, early) {
  useThreadWorkerScript(threadWorker);
  return run(args, early, 'the bundle (build/bundle)');
}
