// Has a module's TurboFan code made for the next runs, by a detached process at the lowest
// priority (host/code-cache/make-turbofan-code.js), stamped for this process's V8 flags, which
// are those of every `spindle` (none: V8's defaults, host/code-cache/defaults-stamp.js). `spindle
// run` calls it after a run that found no code, `spindle cc` and `spindle cargo`'s linker after a
// link, so that the module's first run with this Node finds it.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedCode } from '../../host/compile/compilation.js';
import { codeCacheAddon } from '../../host/code-cache/addon.js';
import { compilingNow } from '../../host/code-cache/compile-cached.js';
import { defaultsStamp, TURBOFAN_FLAGS } from '../../host/code-cache/defaults-stamp.js';

const MAKER = fileURLToPath(new URL('../../host/code-cache/make-turbofan-code.js', import.meta.url));

/**
 * A function that starts the making of `wasm`'s TurboFan code under `entry` (cachedCode's
 * { marker, dir, key }), once process `waitFor` (0: none) has ended; null where it cannot be
 * made here (no addon, V8 tiered nothing up to take its stamp from).
 */
export async function turbofanMaker(wasm, { dir, key }, waitFor = 0) {
  const { addon } = codeCacheAddon();
  let stamp = null;
  try {
    stamp = addon && await defaultsStamp(addon);
  } catch (err) {
    // (the run's work is done: its code is made next time, and its exit status stays the program's)
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] no TurboFan code made: ${err.message}\n`);
  }
  if (!stamp) return null;
  const args = [...TURBOFAN_FLAGS, MAKER, resolve(wasm), dir, key, stamp.toString('hex'), String(waitFor)];
  return () => {
    const { spawn } = process.getBuiltinModule('node:child_process'); // (loaded only for this)
    spawn(process.execPath, args, { detached: true, stdio: 'ignore' }).unref();
  };
}

// How long a run waits for a maker that compiles its module now: SQLite's 1 MiB of code takes
// TurboFan 1-1.2 s on two cores.
const MAKER_WAIT_MS = 10000;

/**
 * Waits until the TurboFan code that a maker compiles now (not one that waits for a run to end)
 * is in the cache, or the maker has gone, at most MAKER_WAIT_MS: `found`, cachedCode's answer
 * with `making`. So `spindle cc x.c && spindle run x.wasm` runs TurboFan code, not Liftoff code
 * beside a compile of the same module. Returns whether it waited.
 */
export async function awaitMaker(found) {
  if (!found?.making || !compilingNow(found.making)) return false;
  const { existsSync } = process.getBuiltinModule('node:fs');
  const code = resolve(found.dir, `${found.key}.code`);
  for (const until = Date.now() + MAKER_WAIT_MS; Date.now() < until && !existsSync(code) && compilingNow(found.making);) {
    await new Promise((next) => setTimeout(next, 10));
  }
  return true;
}

/**
 * After a link: starts the making of the module's TurboFan code unless the cache has it or it is
 * being made. SPINDLE_CODE_CACHE=0 turns the cache off, as for runs; SPINDLE_CODE_CACHE_PREFILL=0
 * only this (scripts/test.sh: the suites link hundreds of modules).
 */
export async function prefillCodeCache(wasm) {
  if (process.env.SPINDLE_CODE_CACHE === '0' || process.env.SPINDLE_CODE_CACHE_PREFILL === '0') return;
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const found = await cachedCode(readFileSync(wasm), true);
  if (found?.marker) (await turbofanMaker(wasm, found))?.();
}

/**
 * Waits until no maker works in cache directory `dir` (no KEY.making file), at most `timeoutMs`:
 * for benches, whose measured runs must neither share the CPU with a compile nor miss code that
 * is about to be made. Returns whether they were done.
 */
export async function makersDone(dir, timeoutMs = 120000) {
  const { readdirSync } = process.getBuiltinModule('node:fs');
  const busy = () => {
    try {
      return readdirSync(dir).some((name) => name.endsWith('.making'));
    } catch {
      return false; // no cache directory: nothing is made there
    }
  };
  for (const until = Date.now() + timeoutMs; busy();) {
    if (Date.now() > until) return false;
    await new Promise((next) => setTimeout(next, 50));
  }
  return true;
}
