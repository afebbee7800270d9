// A compile that reuses machine code from an earlier run (docs/HOST.md, "Compiled-code cache"),
// for host/compile/compilation.js. V8 stamps its code with a hash of every flag and refuses code
// stamped under other flags, so an entry's key names the flags it was made for.
import { join } from 'node:path';
import { codeCacheAddon } from './addon.js';
import { cacheKey, defaultCacheDir, readCode, unusableReason, writeCode } from './store.js';

const { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } = process.getBuiltinModule('node:fs');

/** How long a run's making of a module's TurboFan code keeps others from starting it again. */
export const MAKING_MS = 2 * 60 * 1000;

/** Whether process `pid` runs (another user's too). */
export const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/**
 * Whether a process compiles its module's TurboFan code under `marker` now, not waiting for a
 * run to end first (the marker names the run it waits for, 0 for none).
 */
export function compilingNow(marker) {
  try {
    const runPid = Number(readFileSync(marker, 'utf8'));
    return beingMade(marker) && !(runPid > 0 && alive(runPid));
  } catch {
    return false;
  }
}

/**
 * Takes `marker` for a maker, noting in it the run the maker waits for (0: none); false where
 * another process holds it. The process that starts a maker takes it first, so that a run
 * started right after (`spindle cc x.c && spindle run x.wasm`) finds it even while the maker's
 * Node still boots (host/code-cache/make-turbofan-code.js, CLAIMED).
 */
export function claimMarker(marker, runPid) {
  try {
    writeFileSync(marker, String(runPid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if (err.code !== 'EEXIST' || beingMade(marker)) return false;
    writeFileSync(marker, String(runPid)); // a dead maker's
    return true;
  }
}

/** Whether `marker` says a process is making its module's TurboFan code now (a dead one's goes stale). */
export function beingMade(marker) {
  try {
    return Date.now() - statSync(marker).mtimeMs < MAKING_MS;
  } catch {
    return false;
  }
}

/**
 * The cache entry for `wire` compiled under `setting` (a string naming Node and the V8 flags) in
 * `dir` (default: defaultCacheDir()): { addon, dir, key }, or { why } where there is no cache.
 * Its key hashes the whole wire bytes, so a compile asks once and passes the entry on.
 */
export function cacheEntry(wire, { dir = defaultCacheDir(), setting }) {
  const { addon, why } = codeCacheAddon();
  if (!addon) return { why };
  const unusable = unusableReason(dir);
  if (unusable) return { why: unusable };
  return { addon, dir, key: cacheKey(addon.sha256, wire, setting) };
}

/**
 * For a module and its cache entry: whether the cache has its TurboFan code (a file, checked
 * later by the compile). { cached: true }; else { cached: false, marker, dir, key } where it may
 * be made (host/code-cache/make-turbofan-code.js, with that marker), { cached: false, why,
 * making, dir, key } where a process is making it (`making`, its marker), or { cached: false,
 * why } where the cache is off.
 */
export function turbofanCode({ dir, key, why }) {
  if (!key) return { cached: false, why };
  if (existsSync(join(dir, `${key}.code`))) return { cached: true };
  const marker = join(dir, `${key}.making`);
  return beingMade(marker) ? { cached: false, why: 'its TurboFan code is being made', making: marker, dir, key } : { cached: false, marker, dir, key };
}

/**
 * Compiles `wire` with the TurboFan code its entry (cacheEntry, under stampedSetting) holds for
 * this process's V8 defaults (host/code-cache/defaults-stamp.js): { module }, or { why } where
 * the cache has none or V8 refused it, and the caller compiles as without a cache. `why` says
 * which, with what the module's last maker could not do (unmadeReason), for SPINDLE_DEBUG.
 */
export async function compileStamped(wire, { addon, dir, key }) {
  const code = readCode(addon.sha256, dir, key);
  if (code) {
    const took = new Uint8Array(1);
    const module = await addon.compile(wire, code, took);
    if (took[0] === 1) return { module };
  }
  // a damaged file, or code V8 will not take, is no use to any run: gone, it is made again
  let there = false;
  try {
    unlinkSync(join(dir, `${key}.code`));
    there = true;
  } catch { /* there was none */ }
  const unmade = unmadeReason(dir, key);
  return { why: there ? (code ? 'V8 refused the code cached (another V8, CPU or flags)' : 'a damaged file') : unmade ? `its last maker: ${unmade}` : 'none cached' };
}

// What a maker that stored no code says why (make-turbofan-code.js), in KEY.unmade until one
// stores code: read only to explain a miss.
const unmadePath = (dir, key) => join(dir, `${key}.unmade`);

/** Notes why the maker of `key`'s code in `dir` stored none (null: it stored code). */
export function noteUnmade(dir, key, why) {
  try {
    if (why === null) unlinkSync(unmadePath(dir, key));
    else writeFileSync(unmadePath(dir, key), why.slice(0, 500), { mode: 0o600 });
  } catch { /* only a note */ }
}

function unmadeReason(dir, key) {
  try {
    return readFileSync(unmadePath(dir, key), 'utf8');
  } catch {
    return null;
  }
}

/**
 * Compiles `wire` eagerly with cached code where its cache entry (cacheEntry) has code V8 will
 * take, else compiles it and stores its code. Returns { module, cache }, cache one of 'hit',
 * 'stored' or 'off: WHY' (compiled as without a cache).
 */
export async function compileCached(wire, { addon, dir, key, why }) {
  if (!key) return { module: await WebAssembly.compile(wire), cache: `off: ${why}` };
  const code = readCode(addon.sha256, dir, key);
  // V8 takes the code where its header (V8's version, CPU features, flag hash) is V8's own, and
  // says so in `took`; else it compiles the wire bytes, whose code is then stored in its place
  const took = new Uint8Array(1);
  const module = await addon.compile(wire, code, took);
  if (took[0] === 1) return { module, cache: 'hit' };
  const made = addon.serialize(module);
  if (!made) return { module, cache: 'off: V8 serialized nothing' };
  const failed = writeCode(addon.sha256, dir, key, made);
  return { module, cache: failed ? `off: ${failed}` : 'stored' };
}
