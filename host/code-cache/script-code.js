// A script's V8 code kept in a folder of the compiled-code cache (docs/HOST.md, "Thirteenth
// pass"): what `vm.Script`'s createCachedData gives once the script has run, so the functions it
// ran are in it, written as one of the cache's checked files (store.js). The CLI's run bundle keeps
// its code this way on the main thread (cli/run/script-cache.js), and its thread worker's bundle in
// the worker that ran the first thread (host/program/thread-worker.js).
import { codeCacheAddon } from './addon.js';
import { pruneCache, writeCode } from './store.js';

// Where a thread worker that keeps its bundle's code is (a shared word, [0]): none yet, the first
// thread runs in the worker that took the keeping, the code is being written, done (or dropped).
export const KEEP = Object.freeze({ NONE: 0, THREAD: 1, WRITING: 2, DONE: 3 });

// (files of other bundles, kept for other checkouts and Nodes, are removed past this size)
const KEPT_BYTES = 4 * 1024 * 1024;

/**
 * Writes the code V8 has for `script` now as `key` in the checked folder `dir`; false where it
 * could not (no addon, or a failed write: only an optimization, the next run compiles again).
 */
export function keepScriptCode(script, dir, key) {
  const { addon } = codeCacheAddon();
  if (!addon || writeCode(addon.sha256, dir, key, script.createCachedData()) !== null) return false;
  pruneCache(dir, KEPT_BYTES);
  return true;
}
