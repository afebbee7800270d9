// `spindle run` in Node from its bundles where they are current (cli/common/bundles.js): the run
// path as a classic script whose V8 code is kept after a run (cli/run/script-cache.js), its
// threads' workers from the thread worker's bundle.
import { unusableReason } from '../../host/code-cache/store.js';
import { BUNDLE_DIR, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from '../common/bundles.js';
import { loadCachedScript } from './script-cache.js';

const { join } = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');

// (the run bundle's cache files, in the JavaScript caches' folder, cli/run/js-compile-cache.js)
const SCRIPT_CACHE = 'run-bundle';

/**
 * Runs `spindle run args` from the bundles under `root` and resolves with its exit code;
 * `bundle`: their record (usableBundle), `jsCache`: the checked folder of the JavaScript caches
 * (cli/run/js-compile-cache.js, jsCacheDir), or null. The early start is in the run's bundle: as
 * a bundle of its own, loaded first so that the workers booted while the rest loaded, it cost a
 * hello world ~2-4 ms and gained a threaded program nothing (docs/HOST.md, "Thirteenth pass").
 * The run's code is kept once its program has ended.
 */
export async function runFromBundle(root, bundle, args, jsCache) {
  const dir = join(root, BUNDLE_DIR);
  const { sha256 } = bundle.outputs.find((o) => o.path === RUN_BUNDLE);
  // (a folder of its own in the checked one, made and checked as the code cache's folders are)
  const scriptCache = jsCache && join(jsCache, SCRIPT_CACHE);
  const usable = scriptCache && !unusableReason(scriptCache) ? scriptCache : null;
  const { exports, cache, keep } = loadCachedScript(join(dir, RUN_BUNDLE), sha256, usable);
  return exports.runCommand(args, pathToFileURL(join(dir, THREAD_WORKER_BUNDLE)), { scriptCache: cache, afterProgram: keep });
}
