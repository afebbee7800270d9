// The run bundle, and the thread worker's, as classic scripts whose V8 code is kept after a run
// (docs/HOST.md, "Thirteenth pass" and "Fifteenth pass"). Node's compile cache for modules (module.enableCompileCache) keeps what V8
// compiled when a module loaded: its top level, not its functions, which V8 compiles at their
// first call. So every run compiled again each function it ran: ~6 ms of a hello world's 50.
// A script's cache made after it ran holds the functions it ran too (vm.Script's
// createCachedData), and a script is what Node lets JavaScript keep that way. A thread worker
// compiled ~150 functions of its bundle at each start the same way (~3.5 ms of a one-pthread run).
// V8 checks a cache against its own version and flags and the source's length, not the source's
// bytes, and a release V8 checks no checksum of it: so a cache file is named by the bundle's
// SHA-256 (scripts/build-run-bundle.js records it), Node's version and options, and it is one of
// the compiled-code cache's checked files (host/code-cache/store.js: the payload's SHA-256 in
// its header, written whole), in a directory checked as that one is.
import { codeCacheAddon } from '../../host/code-cache/addon.js';
import { readCode } from '../../host/code-cache/store.js';
import { KEEP, keepScriptCode } from '../../host/code-cache/script-code.js';
import { shortHash } from '../common/short-hash.js';

const { readFileSync } = process.getBuiltinModule('node:fs');
const { pathToFileURL } = process.getBuiltinModule('node:url');

// The script is one function expression: scripts/build-run-bundle.js writes CommonJS code between
// these two (whose parameters are what that code and its define name use), so that the source
// V8 reads is the file itself, not a copy of it.
export const SCRIPT_WRAPPER = { before: '(function (exports, require, module, __bundleUrl) {', after: '\n})' };

// V8 refuses code made under other flags, so a Node started with options of its own (a run that
// needs V8 flags starts one, cli/common/v8-start.js) keeps a file of its own rather than replace
// the file of every other run each time: a short hash of its options, 'default' without any.
function flagsTag() {
  const options = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0');
  return options === '' ? 'default' : shortHash(options);
}

function requireBuiltin(id) {
  const builtin = process.getBuiltinModule(id);
  if (!builtin) throw new Error(`the run bundle requires ${id}, which is not one of Node's built-ins`);
  return builtin;
}

/**
 * Evaluates the CommonJS script at `path` (its SHA-256: `sha256`) and returns { exports, cache }:
 * cache is 'hit', 'miss' (none, or a file that failed its check), 'rejected' (V8 refused the
 * kept code) or 'off', and `keep()` writes the code V8 has by then, where the run found none to
 * use. `cacheDir`: a directory the caller has checked, or null for no cache. Without the code
 * cache's addon (its SHA-256) there is none.
 */
export function loadCachedScript(path, sha256, cacheDir) {
  const vm = process.getBuiltinModule('node:vm');
  const hash = cacheDir ? codeCacheAddon().addon?.sha256 : null;
  const key = scriptKey(sha256);
  const cachedData = hash ? readCode(hash, cacheDir, key) ?? undefined : undefined;
  // (latin1: the bundle is ASCII, scripts/build-run-bundle.js, and its bytes are then its text)
  const source = readFileSync(path, 'latin1');
  // (no import() in it: a script's needs Node's experimental flag, so the bundle loads Node's
  // built-ins with process.getBuiltinModule)
  const script = new vm.Script(source, { filename: path, cachedData });
  const url = pathToFileURL(path).href;
  const module = { exports: {} };
  // (the bundle requires only Node's built-ins, scripts/build-run-bundle.js: no CommonJS loader,
  // whose first use, createRequire, cost ~0.4 ms)
  script.runInThisContext()(module.exports, requireBuiltin, module, url);
  const cache = !hash ? 'off' : !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  const keep = () => {
    if (cache !== 'miss' && cache !== 'rejected') return;
    // (only an optimization: where it cannot be written, the next run compiles as this one did)
    keepScriptCode(script, cacheDir, key);
  };
  return { exports: module.exports, cache, keep };
}

// A kept code's name: the bundle's SHA-256 (its first half), Node's version, and its options.
const scriptKey = (sha256) => `${sha256.slice(0, 32)}-${process.version}-${process.arch}-${flagsTag()}`;

// What a thread worker runs first: the bundle with its code, from workerData.script.
const WORKER_LOADER = new URL('./thread-worker-loader.cjs', import.meta.url);

/**
 * How thread workers run the thread worker's bundle at `path` (SHA-256 `sha256`) with its kept V8
 * code (host/program/node-workers.js, useThreadWorkerScript): { loader, workerData(), settle(),
 * given() }, `loader` the file each worker starts from, `workerData()` what one worker gets. The code is read from the
 * checked folder `cacheDir` (null: none) when the first worker starts, so a run without threads
 * reads nothing. Where there was none (or V8 refused it), the first worker to run a thread keeps
 * the code once that thread has ended, and `settle()`, before the first worker is ended, lets a
 * write under way finish (at most KEEP_WAIT_MS), not a thread that runs on.
 */
export function workerScript(path, sha256, cacheDir) {
  const url = pathToFileURL(path).href;
  const hash = cacheDir ? codeCacheAddon().addon?.sha256 : null;
  const key = scriptKey(sha256);
  // [0]: KEEP.* (host/program/thread-worker.js moves it on)
  const keeping = new Int32Array(new SharedArrayBuffer(4));
  let cachedData;
  let settled = false;
  return {
    loader: WORKER_LOADER,
    workerData() {
      if (cachedData === undefined) cachedData = (hash && readCode(hash, cacheDir, key)) || null;
      return { path, url, cachedData, keep: hash ? { dir: cacheDir, key, keeping } : null };
    },
    settle() {
      if (settled) return;
      settled = true;
      // (a thread that has just ended is about to write: a moment for that, not for one that runs on)
      if (Atomics.load(keeping, 0) === KEEP.THREAD) Atomics.wait(keeping, 0, KEEP.THREAD, THREAD_END_WAIT_MS);
      if (Atomics.load(keeping, 0) === KEEP.WRITING) Atomics.wait(keeping, 0, KEEP.WRITING, KEEP_WAIT_MS);
    },
    // what the first worker was given: 'hit' (kept code), 'miss', or null before any worker
    given: () => (cachedData === undefined ? null : cachedData ? 'hit' : 'miss'),
  };
}
// (writing it takes a few ms; a worker stuck longer is ended anyway)
const KEEP_WAIT_MS = 500;
const THREAD_END_WAIT_MS = 10;
