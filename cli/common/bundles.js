// The start-up bundles' record (build/bundle/, made by scripts/build-run-bundle.js at setup):
// their names, and whether they are current. `spindle run` starts from them in place of ~90 ES
// modules each resolved, read and linked on every start (docs/HOST.md, "Start-up"): the CLI's
// run path as a classic script whose V8 code is kept after a run (cli/run/run-bundle.js,
// cli/run/script-cache.js), a thread's worker, bin/spindle's start (cli/launch.js), and a
// browser run's page and workers (cli/browser/browser-session.js). They are used only while
// every module they were made from, and each bundle, is as it was then, so an edited module runs
// as it is, from the modules, until the next setup builds them again.
import { addonFunction } from '../../host/platform/mount-addon.js';

const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

export const BUNDLE_DIR = join('build', 'bundle');
export const RUN_BUNDLE = 'run.cjs';
// CommonJS: a worker that loads it through Node's module loader for ES modules starts with its
// young generation full (754 of 768 KB), and its first scavenge then fell in the program's work
// (docs/HOST.md, "A thread worker's first scavenge").
export const THREAD_WORKER_BUNDLE = 'thread-worker.cjs';
export const LAUNCH_BUNDLE = 'launch.mjs';
// A browser run's page and its threads' workers, each one file in place of the ~60 and ~40
// modules the page and every worker fetched from the CLI's server one by one (~160 ms of a
// `spindle run --browser`): served at the paths of the modules they were made from
// (cli/browser/browser-session.js), so that their relative URLs name the same files.
export const PAGE_BUNDLES = Object.freeze({
  '/host/browser/run-page.js': 'page.mjs',
  '/host/program/thread-worker.js': 'page-thread-worker.mjs',
});
export const BUNDLES = Object.freeze([RUN_BUNDLE, THREAD_WORKER_BUNDLE, LAUNCH_BUNDLE, ...Object.values(PAGE_BUNDLES)]);
export const INPUTS_FILE = 'inputs.json';
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
    if (record.inputs.length === 0 || !BUNDLES.every((b) => bundles.includes(b))) return null;
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
 * The files a browser run's server sends in place of the modules at PAGE_BUNDLES' paths: a map
 * of path to bundle file, empty where the bundles under `root` are not current (or SPINDLE_BUNDLE=0).
 */
export function pageBundleFiles(root) {
  if (!usableBundle(root)) return new Map();
  return new Map(Object.entries(PAGE_BUNDLES).map(([path, bundle]) => [path, join(root, BUNDLE_DIR, bundle)]));
}
