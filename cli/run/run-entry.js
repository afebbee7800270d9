// The entry of `spindle run`'s bundle (scripts/build-run-bundle.js), which bin/spindle's first
// module loads from its kept V8 code (cli/boot.js): the bundles' check, then the run path of
// cli/main.js, whose threads' workers start from the thread worker's bundle.
import { recordHolds } from '../common/bundles.js';
import { launch } from '../common/launch.js';
import { earlyStart } from './run-early.js';
import { run } from './run.js';

/**
 * Runs `spindle run args` and exits with its status, where every file of the bundles' `record` is
 * as it was recorded (else returns false, having started nothing itself). `jsCache`: the checked folder
 * of the JavaScript caches, or null; `threadWorker`: how thread workers run their bundle
 * (cli/run/script-cache.js, workerScript); `replay`: what this command line's last run started
 * early, and what bin/spindle's first module started from it (cli/run/early-replay.js),
 * `scriptCache`: whether this bundle's code came from its cache (cli/run/script-cache.js),
 * `bootCode`: whether bin/spindle's boot came from its kept code, `afterProgram`: called once the
 * program has ended.
 */
export function launchRun(root, record, args, jsCache, { threadWorker, replay, scriptCache, bootCode, afterProgram }) {
  if (!recordHolds(root, record)) return false;
  launch(async () => {
    const early = await earlyStart(args, { threadWorker, replay });
    return run(args, early, `the bundle (build/bundle; its V8 code: ${scriptCache}; the boot's: ${bootCode})`, afterProgram);
  }, jsCache, { fromBundle: true });
  return true;
}
