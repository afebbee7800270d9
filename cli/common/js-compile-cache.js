// Node 22 and later can keep V8's compiled code of JavaScript modules between runs
// (`module.enableCompileCache`). Spindle turns it on for its own modules, in a `js` folder of the
// compiled-code cache's directory, checked as that one is: a short run spends a quarter of its
// time loading the CLI's and the host's ~60 modules (docs/HOST.md, "Start-up"). Node 20 has no
// such cache, and SPINDLE_CODE_CACHE=0 turns this off with the rest of the cache. The run
// bundle's code is kept in the same folder another way (cli/run/script-cache.js).
import { defaultCacheDir, unusableReason } from '../../host/code-cache/store.js';

// (Node's built-ins by getBuiltinModule: bin/spindle's start loads this before any cache is on,
// where each `import` of a built-in costs a module of its own)
const { join, resolve } = process.getBuiltinModule('node:path');

const VARIABLE = 'NODE_COMPILE_CACHE';
// beside it, the same directory: NODE_COMPILE_CACHE is then Spindle's, also in a spindle that
// another one started (spindle cargo's runs, the bench's), and a program's --env leaves both out
const OURS = 'SPINDLE_JS_COMPILE_CACHE';

/**
 * What `--code-cache` says among a command's arguments, before they are parsed: 'off', a
 * directory, or undefined (none, or `on`). The first one counts, wherever it is; a program's own
 * argument that looks like it only moves or turns off this cache.
 */
export function codeCacheArgument(args) {
  const at = args.findIndex((a) => a === '--code-cache' || a.startsWith('--code-cache='));
  if (at < 0) return undefined;
  const value = args[at] === '--code-cache' ? args[at + 1] : args[at].slice('--code-cache='.length);
  return value === 'on' || !value ? undefined : value;
}

/**
 * The checked `js` folder of `cacheDir` (`--code-cache=DIR`; by default the compiled-code
 * cache's directory) for the JavaScript caches, or null where there is none: SPINDLE_CODE_CACHE=0,
 * NODE_DISABLE_COMPILE_CACHE, or a folder that is not safe to run code from.
 */
export function jsCacheDir(env = process.env, cacheDir = undefined) {
  if (env.SPINDLE_CODE_CACHE === '0' || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return null;
  // (its parent too: whoever may write there may put another `js` in its place)
  const parent = cacheDir ?? defaultCacheDir(env);
  const dir = join(parent, 'js');
  return unusableReason(parent) || unusableReason(dir) ? null : dir;
}

/**
 * Turns Node's module cache on in `dir` (jsCacheDir) for the workers and Node processes this one
 * starts (through NODE_COMPILE_CACHE, which they inherit), and in this thread too unless
 * `thisThread` is false: a run from the bundles loads no module on this thread, and node:module
 * alone costs it ~0.3 ms. A user's own NODE_COMPILE_CACHE decides instead. Never throws: it is
 * only an optimization.
 */
export function enableJsCompileCache(env, dir, { thisThread = true } = {}) {
  // (Node 22.1 brought the cache and its variable; bin/spindle refuses older 22s)
  if (!dir || env[VARIABLE] !== undefined || Number(process.versions.node.split('.')[0]) < 22) return; // (Node did as it says)
  if (!thisThread) {
    env[VARIABLE] = env[OURS] = resolve(dir);
    return;
  }
  try {
    const { directory } = process.getBuiltinModule('node:module').enableCompileCache(dir);
    if (directory) env[VARIABLE] = env[OURS] = directory;
  } catch { /* no cache: the modules compile as before */ }
}

/** process.env as the user gave it: without the variables set above (for `spindle run --env`). */
export function userEnv(env = process.env) {
  const { [OURS]: ours, ...rest } = env;
  if (ours !== undefined && rest[VARIABLE] === ours) delete rest[VARIABLE];
  return rest;
}
