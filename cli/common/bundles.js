// Whether the start-up bundles (build/bundle/, made by scripts/build-run-bundle.js at setup) are
// current; their names and record are cli/common/bundle-record.js's. `spindle run` starts from
// them in place of ~90 ES modules each resolved, read and linked on every start (docs/HOST.md,
// "Start-up"): bin/spindle's first module (cli/boot.js), the CLI's run path as a classic script
// whose V8 code is kept after a run (cli/run/script-cache.js), a thread's worker, and a browser
// run's page and workers (cli/browser/browser-session.js). They are used only while every module
// they were made from, and each bundle, is as it was then, so an edited module runs as it is,
// from the modules, until the next setup builds them again.
import { addonFunction } from '../../host/platform/mount-addon.js';
import { BUNDLE_DIR, PAGE_BUNDLES, readBundleRecord } from './bundle-record.js';

export { BOOT_BUNDLE, BUNDLE_DIR, BUNDLES, INPUTS_FILE, PAGE_BUNDLES, readBundleRecord, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from './bundle-record.js';

const { statSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

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
 * Whether every file of `record` (readBundleRecord's, of the bundles under `root`), the inputs
 * and each bundle, is as it was recorded.
 */
export function recordHolds(root, record) {
  try {
    const outputs = record.outputs.map((o) => ({ ...o, path: join(BUNDLE_DIR, o.path) }));
    return unchanged(root, [...record.inputs, ...outputs]);
  } catch {
    return false;
  }
}

/** The record of the bundles under `root` (readBundleRecord) where every file is as recorded; else null. */
export function currentBundle(root) {
  const record = readBundleRecord(root);
  return record && recordHolds(root, record) ? record : null;
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
