// The start-up bundles' names and their record (build/bundle/inputs.json, written by
// scripts/build-run-bundle.js): what bin/spindle's first module (cli/boot.js) reads before it
// loads the run bundle, so nothing here loads an addon. Whether the record still holds is
// cli/common/bundles.js's check.
const { readFileSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

export const BUNDLE_DIR = join('build', 'bundle');
export const RUN_BUNDLE = 'run.cjs';
// CommonJS: a worker that loads it through Node's module loader for ES modules starts with its
// young generation full (754 of 768 KB), and its first scavenge then fell in the program's work
// (docs/HOST.md, "A thread worker's first scavenge").
export const THREAD_WORKER_BUNDLE = 'thread-worker.cjs';
// A script, as the run bundle is: its V8 code is kept beside it for each Node the build found
// (scripts/make-boot-code.js), under the name bootCodeName gives (bin/spindle, which reads it before any module loads, spells
// the same name).
export const BOOT_BUNDLE = 'boot.cjs';
/** The file of the boot bundle's V8 code for this Node, for the bundle's stat `st`. */
export const bootCodeName = (st) => `${BOOT_BUNDLE}.${process.version}-${process.arch}-${Math.trunc(st.mtimeMs)}-${st.size}.code`;
// A browser run's page and its threads' workers, each one file in place of the ~60 and ~40
// modules the page and every worker fetched from the CLI's server one by one (~160 ms of a
// `spindle run --browser`): served at the paths of the modules they were made from
// (cli/browser/browser-session.js), so that their relative URLs name the same files.
export const PAGE_BUNDLES = Object.freeze({
  '/host/browser/run-page.js': 'page.mjs',
  '/host/program/thread-worker.js': 'page-thread-worker.mjs',
});
export const BUNDLES = Object.freeze([RUN_BUNDLE, THREAD_WORKER_BUNDLE, BOOT_BUNDLE, ...Object.values(PAGE_BUNDLES)]);
export const INPUTS_FILE = 'inputs.json';

/**
 * The record of the bundles under `root` (the repository): { inputs, outputs }, each file's path,
 * mtime and size (and each bundle's SHA-256), where it lists inputs and every bundle; else null.
 * It does not say that the files are still as recorded (cli/common/bundles.js does).
 */
export function readBundleRecord(root) {
  try {
    const record = JSON.parse(readFileSync(join(root, BUNDLE_DIR, INPUTS_FILE), 'utf8'));
    const bundles = record.outputs?.map((o) => o.path) ?? [];
    return record.inputs?.length > 0 && BUNDLES.every((b) => bundles.includes(b)) ? record : null;
  } catch {
    return null;
  }
}
