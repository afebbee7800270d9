// Whether `spindle run` starts from its bundles (build/bundle/, made by
// scripts/build-run-bundle.js at setup), in place of ~90 ES modules each resolved, read and linked
// on every start (docs/HOST.md, "Start-up"): the CLI's run path (its early start included) as a
// classic script whose V8 code is kept after a run (cli/run/script-cache.js), a thread's worker,
// and bin/spindle's start (cli/launch.js). They are used only while every module they were made
// from, and each bundle, is as it was then, so an edited module runs as it is, from the modules,
// until the next setup builds them again.
import { addonFunction } from '../../host/platform/mount-addon.js';
import { unusableReason } from '../../host/code-cache/store.js';
import { loadCachedScript } from './script-cache.js';

const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');

export const BUNDLE_DIR = join('build', 'bundle');
export const RUN_BUNDLE = 'run.cjs';
export const THREAD_WORKER_BUNDLE = 'thread-worker.mjs';
export const LAUNCH_BUNDLE = 'launch.mjs';
export const INPUTS_FILE = 'inputs.json';
// (the run bundle's cache files, in the JavaScript caches' folder, cli/run/js-compile-cache.js)
const SCRIPT_CACHE = 'run-bundle';

// Whether every file of `records` ({ path, mtimeMs, size }, paths under `root`) is as recorded:
// through the mount addon's fileStamps where it has it (one call for all: -0.5 ms paired for a
// hello world, against node:fs's first stats), else node:fs.
function unchanged(root, records) {
  const paths = records.map((r) => `${root}/${r.path}`);
  const stamps = addonFunction('fileStamps')?.(paths);
  if (stamps) return records.every((r, i) => stamps[2 * i] === r.mtimeMs && stamps[2 * i + 1] === r.size);
  return records.every((r, i) => {
    const st = statSync(paths[i]);
    return st.mtimeMs === r.mtimeMs && st.size === r.size;
  });
}

/**
 * The record of the bundles under `root` (the repository), { inputs, outputs } with each file's
 * path, mtime and size (and each bundle's SHA-256), where every file is as recorded; else null.
 */
export function currentBundle(root) {
  try {
    const record = JSON.parse(readFileSync(join(root, BUNDLE_DIR, INPUTS_FILE), 'utf8'));
    const bundles = record.outputs?.map((o) => o.path) ?? [];
    if (record.inputs.length === 0 || ![RUN_BUNDLE, THREAD_WORKER_BUNDLE, LAUNCH_BUNDLE].every((b) => bundles.includes(b))) return null;
    const outputs = record.outputs.map((o) => ({ ...o, path: join(BUNDLE_DIR, o.path) }));
    return unchanged(root, [...record.inputs, ...outputs]) ? record : null;
  } catch {
    return null;
  }
}

/** Whether the bundles under `root` exist and every input is unchanged. */
export const freshBundle = (root) => currentBundle(root) !== null;

/** The record of the bundles `spindle run` starts from under `root`, or null (SPINDLE_BUNDLE=0: never). */
export const usableBundle = (root) => (process.env.SPINDLE_BUNDLE !== '0' && currentBundle(root)) || null;

export const bundleUsable = (root) => usableBundle(root) !== null;

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
