// Whether `spindle run` starts from its bundles (build/bundle/, made by
// scripts/build-run-bundle.js at setup): one file for the CLI's run path (its early start
// included) and one for a thread's worker, in place of ~60 ES modules each resolved, read and linked on every start (docs/HOST.md,
// "Start-up"). They are used only while every module they were made from is as it was then, so
// an edited module runs as it is, from the modules, until the next setup builds them again.
const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');

export const BUNDLE_DIR = join('build', 'bundle');
export const RUN_BUNDLE = 'run.mjs';
export const THREAD_WORKER_BUNDLE = 'thread-worker.mjs';
export const INPUTS_FILE = 'inputs.json';

/** Whether the bundles under `root` (the repository) exist and every input is unchanged. */
export function freshBundle(root) {
  const dir = join(root, BUNDLE_DIR);
  try {
    statSync(join(dir, RUN_BUNDLE));
    statSync(join(dir, THREAD_WORKER_BUNDLE));
    const { inputs } = JSON.parse(readFileSync(join(dir, INPUTS_FILE), 'utf8'));
    return inputs.length > 0 && inputs.every(({ path, mtimeMs, size }) => {
      const st = statSync(join(root, path));
      return st.mtimeMs === mtimeMs && st.size === size;
    });
  } catch {
    return false;
  }
}

/** Whether `spindle run` starts from the bundles under `root` (SPINDLE_BUNDLE=0: never). */
export const bundleUsable = (root) => process.env.SPINDLE_BUNDLE !== '0' && freshBundle(root);

/**
 * Runs `spindle run args` from the bundles under `root` (bundleUsable) and resolves with its exit
 * code. The early start is in the run's bundle: as a bundle of its own, loaded first so that the
 * workers booted while the rest loaded, it cost a hello world ~5 ms and gained a threaded
 * program nothing (docs/HOST.md, "Thirteenth pass").
 */
export async function runFromBundle(root, args) {
  const dir = join(root, BUNDLE_DIR);
  const { runCommand } = await import(pathToFileURL(join(dir, RUN_BUNDLE)).href);
  return runCommand(args, pathToFileURL(join(dir, THREAD_WORKER_BUNDLE)));
}
