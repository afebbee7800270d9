// Node 22 and later can keep V8's compiled code of JavaScript modules between runs
// (`module.enableCompileCache`). Spindle turns it on for its own modules, in a `js` folder of the
// compiled-code cache's directory, checked as that one is: a short run spends a quarter of its
// time loading the CLI's and the host's ~60 modules (docs/HOST.md, "Start-up"). Node 20 has no
// such cache, and SPINDLE_CODE_CACHE=0 turns this off with the rest of the cache.
import module from 'node:module';
import { join } from 'node:path';
import { defaultCacheDir, unusableReason } from '../host/code-cache/store.js';

const VARIABLE = 'NODE_COMPILE_CACHE';
let setHere = null;

/**
 * Turns the cache on in this thread, and for the workers and Node processes it starts (through
 * NODE_COMPILE_CACHE, which they inherit). A user's own NODE_COMPILE_CACHE, or
 * NODE_DISABLE_COMPILE_CACHE, decides instead. Never throws: it is only an optimization.
 */
export function enableJsCompileCache(env = process.env) {
  if (typeof module.enableCompileCache !== 'function' || env.SPINDLE_CODE_CACHE === '0') return;
  if (env[VARIABLE] !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  try {
    // (its parent too: whoever may write there may put another `js` in its place)
    const dir = join(defaultCacheDir(env), 'js');
    if (unusableReason(defaultCacheDir(env)) || unusableReason(dir)) return;
    const { directory } = module.enableCompileCache(dir);
    if (directory) env[VARIABLE] = setHere = directory;
  } catch { /* no cache: the modules compile as before */ }
}

/** process.env as the user gave it: without the variable set above (for `spindle run --env`). */
export function userEnv(env = process.env) {
  if (setHere === null || env[VARIABLE] !== setHere) return { ...env };
  const { [VARIABLE]: _ours, ...rest } = env;
  return rest;
}
