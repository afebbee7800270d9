// Whether `spindle run` starts from its bundles (build/bundle/, made by
// scripts/build-run-bundle.js at setup): one file for the CLI's run path (its early start
// included), a classic script whose V8 code is kept after a run (cli/run/script-cache.js), one
// for a thread's worker, and one for bin/spindle's start (cli/launch.js), in place of ~60 ES modules each resolved, read and linked on every
// start (docs/HOST.md, "Start-up"). They are used only while every module they were made from,
// and each bundle, is as it was then, so an edited module runs as it is, from the modules, until
// the next setup builds them again.
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

const unchanged = (root) => ({ path, mtimeMs, size }) => {
  const st = statSync(join(root, path));
  return st.mtimeMs === mtimeMs && st.size === size;
};

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
    return record.inputs.every(unchanged(root)) && outputs.every(unchanged(root)) ? record : null;
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
 * (cli/run/js-compile-cache.js, jsCacheDir), or null. The early
 * start is in the run's bundle: as a bundle of its own, loaded first so that the workers booted
 * while the rest loaded, it cost a hello world ~5 ms and gained a threaded program nothing
 * (docs/HOST.md, "Thirteenth pass"). The run's code is kept once its program has ended.
 */
export async function runFromBundle(root, bundle, args, jsCache) {
  const dir = join(root, BUNDLE_DIR);
  const { sha256 } = bundle.outputs.find((o) => o.path === RUN_BUNDLE);
  const { exports, cache, keep } = loadCachedScript(join(dir, RUN_BUNDLE), sha256, jsCache && join(jsCache, SCRIPT_CACHE));
  return exports.runCommand(args, pathToFileURL(join(dir, THREAD_WORKER_BUNDLE)), { scriptCache: cache, afterProgram: keep });
}
