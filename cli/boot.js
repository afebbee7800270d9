// bin/spindle's first step, from its bundle (build/bundle/boot.cjs, a script whose V8 code the
// bundles' build kept for each Node it found: scripts/make-boot-code.js) while the bundles are
// current. A `spindle run` in Node goes on from the run bundle's kept V8 code
// (cli/run/run-entry.js: the bundles' check, cli/common/launch.js, the run). What runs before that
// is only this: the command's words, the bundles' record, the cache folder, the workers and the
// lazy compile this command line started early last time (cli/run/early-replay.js) and the run
// bundle's load. Where that code finds the bundles changed since they were built, the command
// runs from the modules.
import { BUNDLE_DIR, readBundleRecord, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from './common/bundle-record.js';
import { commandWords, inBrowser, jsCacheFor } from './common/command-line.js';
import { unusableReason } from '../host/code-cache/store.js';
import { loadCachedScript, workerScript } from './run/script-cache.js';
import { compileReplayed, endReplayed, readReplay, replayFile, startReplayed } from './run/early-replay.js';

const { join } = process.getBuiltinModule('node:path');

// (the run bundle's cache files, in the JavaScript caches' folder, cli/common/js-compile-cache.js)
const SCRIPT_CACHE = 'run-bundle';

/**
 * Starts `spindle run` from the run bundle of `root` (the repository) and returns true, or false
 * where this command does not start that way: not a run in Node, no bundles, SPINDLE_BUNDLE=0, or
 * a bundle or module changed since the bundles were built. The run bundle's code is kept once its
 * program has ended. `bootCode`: whether this boot ran from its kept code ('hit', 'none',
 * 'rejected'; bin/spindle).
 */
export function startFromBundle(root, bootCode = 'none') {
  const words = commandWords();
  if (words[0] !== 'run' || inBrowser(words) || process.env.SPINDLE_BUNDLE === '0') return false;
  const record = readBundleRecord(root);
  const run = record?.outputs.find((o) => o.path === RUN_BUNDLE);
  if (!run) return false;
  const jsCache = jsCacheFor(words);
  // (a folder of its own in the checked one, made and checked as the code cache's folders are)
  const scriptCache = jsCache && join(jsCache, SCRIPT_CACHE);
  const usable = scriptCache && !unusableReason(scriptCache) ? scriptCache : null;
  const args = words.slice(1);
  // The workers this command line's last run started early start now, beside the bundle's load
  // (cli/run/early-replay.js); the run adopts them.
  const workerBundle = record.outputs.find((o) => o.path === THREAD_WORKER_BUNDLE);
  const threadWorker = workerBundle ? workerScript(join(root, BUNDLE_DIR, THREAD_WORKER_BUNDLE), workerBundle.sha256, usable) : null;
  const file = replayFile(usable, args);
  const was = file ? readReplay(file) : null;
  const started = threadWorker && (was?.threads || was?.main) ? startReplayed(was, threadWorker) : null;
  const compiled = was && compileReplayed(was);
  const notHere = () => {
    if (started) endReplayed(started);
    return false;
  };
  let loaded;
  try {
    loaded = loadCachedScript(join(root, BUNDLE_DIR, RUN_BUNDLE), run.sha256, usable);
  } catch {
    return notHere(); // (unreadable or broken: the modules say what is wrong, if anything)
  }
  const { exports, cache, keep } = loaded;
  if (typeof exports.launchRun !== 'function') return notHere(); // (a bundle of another build)
  return exports.launchRun(root, record, args, jsCache, {
    threadWorker, replay: file && { file, was, started, compiled }, scriptCache: cache, bootCode, afterProgram: keep,
  }) || notHere();
}
