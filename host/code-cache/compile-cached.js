// A compile that reuses machine code from an earlier run (docs/HOST.md, "Compiled-code cache").
// Called by host/compilation.js while the compile's V8 flags are set, because V8 stamps its code
// with a hash of every flag and refuses code stamped under other flags.
import { codeCacheAddon } from './addon.js';
import { cacheKey, defaultCacheDir, readCode, unusableReason, writeCode } from './store.js';

// The smallest module with code (one empty function): compiled and serialized, it gives the
// header V8 writes into code made right now (magic, V8's version, CPU features, flag hash), which
// is what V8 checks a cached file's header against before it uses it.
const PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 4, 1, 2, 0, 11]);
const V8_HEADER_BYTES = 16;

function currentHeader(addon) {
  const code = addon.serialize(new WebAssembly.Module(PROBE));
  return code ? code.subarray(0, V8_HEADER_BYTES) : null;
}

/**
 * Compiles `wire` with cached code where the cache has code V8 will take, else compiles it.
 * `setting` names what else the code depends on (Node, the V8 flags), `dir` is the cache
 * directory (default: defaultCacheDir()). An eager TurboFan compile stores its code at once;
 * a `tiered` one (Liftoff + dynamic tiering) has no TurboFan code yet, so the result's
 * `keepTieredUp()`, called at the end of a run under the same flags, stores the functions that
 * tiered up by then. Returns { module, cache, keepTieredUp? }, cache one of 'hit', 'stored',
 * 'miss' (tiered, nothing usable cached yet) or 'off: WHY' (compiled as without a cache).
 */
export async function compileCached(wire, { dir = defaultCacheDir(), setting, tiered = false }) {
  const { addon, why } = codeCacheAddon();
  if (!addon) return { module: await WebAssembly.compile(wire), cache: `off: ${why}` };
  const unusable = unusableReason(dir);
  if (unusable) return { module: await WebAssembly.compile(wire), cache: `off: ${unusable}` };
  const key = cacheKey(addon.sha256, wire, setting);
  const code = readCode(addon.sha256, dir, key);
  if (tiered) return compileTiered(addon, wire, code, dir, key);
  const header = currentHeader(addon);
  if (code && header && sameHeader(code, header)) return { module: await addon.compile(wire, code), cache: 'hit' };
  const module = await addon.compile(wire, null);
  return { module, cache: store(addon, dir, key, addon.serialize(module)) };
}

const sameHeader = (code, header) => Buffer.compare(code.subarray(0, V8_HEADER_BYTES), header.subarray(0, V8_HEADER_BYTES)) === 0;

function store(addon, dir, key, made) {
  if (!made) return 'off: V8 serialized nothing';
  const failed = writeCode(addon.sha256, dir, key, made);
  return failed ? `off: ${failed}` : 'stored';
}

// Under Liftoff + tiering the probe module has Liftoff code only, which V8 does not serialize, so
// there is no header to check first: V8 gets the (checksummed) file and checks its header itself.
// Before the module has run, any TurboFan code in it came from the file: that tells a hit.
async function compileTiered(addon, wire, code, dir, key) {
  const module = await addon.compile(wire, code);
  const cache = code && addon.serialize(module) ? 'hit' : 'miss';
  return { module, cache, keepTieredUp: () => keepTieredUp(addon, module, dir, key) };
}

// A tiered module's code grows as its functions tier up, so the file is replaced only by more of
// it (a short run after a long one keeps the long one's code), or where V8 would refuse the
// file's (another header). Says what it did, as `cache` does.
function keepTieredUp(addon, module, dir, key) {
  const made = addon.serialize(module);
  if (!made) return 'nothing tiered up';
  const stored = readCode(addon.sha256, dir, key);
  if (stored && sameHeader(stored, made) && made.length <= stored.length) return `kept (${made.length} bytes tiered up, the file has ${stored.length})`;
  return `${store(addon, dir, key, made)} (${made.length} bytes tiered up)`;
}
