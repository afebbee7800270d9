// What `spindle run --browser` (Chromium) keeps between runs so that a page's next run of a
// module gets the optimized code V8 cached in the last one (docs/HOST.md, "Cached code in
// pages"). Every run still gets a fresh profile (Chromium locks a profile to one process, and a
// run's OPFS lasts that run), but two of its folders come from a per-user directory and go back
// there when the browser has ended: the HTTP cache, which holds the module's response (Chromium
// takes cached code only for the same response, by its response time), and the wasm code
// cache. The directory is $SPINDLE_CODE_CACHE_DIR/chromium-profile, else
// $XDG_CACHE_HOME/spindle/chromium-profile (~/.cache/spindle/chromium-profile), or
// DIR/chromium-profile for --code-cache=DIR; made 0700 and refused when others may write to it
// (host/code-cache/store.js, unusableReason). --code-cache=off and SPINDLE_CODE_CACHE=0 turn
// it off. Chromium keys the code by the module's URL, origin included, so the page's server
// asks for a port of its own (pagePorts) and the module has a URL named by its bytes' SHA-256.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { unusableReason } from '../../host/code-cache/store.js';
import { dropSupersededCode } from './superseded-code.js';

const { constants, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');

// node:crypto loads 17 of Node's modules; cli/run/run.js loads this file (through browsers.js) for
// every Node run, which never needs it, so it is fetched only when a hash is made.
const sha256 = () => process.getBuiltinModule('node:crypto').createHash('sha256');

/** The profile's folders that are kept: the HTTP cache and the wasm code cache. */
export const KEPT_FOLDERS = [['Default', 'Cache'], ['Default', 'Code Cache', 'wasm']];
const WASM_CODE_CACHE = ['Default', 'Code Cache', 'wasm'];
// In the run's profile: what the wasm code cache held when it was copied in (codeCacheState)
const LOADED = 'spindle-code-cache-loaded.json';
// In the per-user directory: the kept folders (swapped whole), and the modules a run has
// waited for (awaitCodeCacheWrite)
const SAVED = 'saved';
const WAITED = 'waited';
// Every run copies the kept folders in, and back where V8 wrote code, without the copies of a
// module's code that its URL no longer names (cli/browser/superseded-code.js): past this size
// they are dropped and the cache starts again.
export const PAGE_CACHE_LIMIT_BYTES = 64 * 1024 * 1024;
// a copy-on-write clone where the file system has them, else a copy
const copy = (from, to) => cpSync(from, to, { recursive: true, mode: constants.COPYFILE_FICLONE });

/**
 * The per-user directory for `codeCache` (spindle run's option: true, false or a directory), or
 * null where the cache is off.
 */
export function profileCacheDir(codeCache, env = process.env) {
  if (!codeCache || env.SPINDLE_CODE_CACHE === '0') return null;
  if (typeof codeCache === 'string') return join(codeCache, 'chromium-profile');
  if (env.SPINDLE_CODE_CACHE_DIR) return join(env.SPINDLE_CODE_CACHE_DIR, 'chromium-profile');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'spindle', 'chromium-profile');
}

/**
 * The cache of a run: { dir } where it can be used, { why } where it is off (`codeCache` as for
 * profileCacheDir). Makes the directory, mode 0700.
 */
export function openProfileCache(codeCache, env = process.env) {
  const dir = profileCacheDir(codeCache, env);
  if (!dir) return { why: 'off' };
  const unusable = unusableReason(dir);
  return unusable ? { why: `off: ${unusable}` } : { dir };
}

/**
 * The ports a cached run's server tries, in order: eight in a row, from one that depends on the
 * user only (20000-27999, below Linux's ephemeral ports). Another run that holds the first gets
 * the next, whose code the cache keeps beside the first's.
 */
export function pagePorts(uid = process.getuid?.() ?? 0) {
  const base = 20000 + (sha256().update(`spindle page port ${uid}`).digest().readUInt16BE(0) % 1000) * 8;
  return Array.from({ length: 8 }, (_, i) => base + i);
}

/** A module's stable path on the page's server: named by the SHA-256 of its bytes. */
export const modulePath = (sha256) => `/wasm/${sha256}.wasm`;
export const MODULE_PATH = /^\/wasm\/([0-9a-f]{64})\.wasm$/;
export const sha256Hex = (bytes) => sha256().update(bytes).digest('hex');

/** The entry files of the profile's wasm code cache, as { name: 'size:mtime' }. */
export function codeCacheState(profile) {
  const dir = join(profile, ...WASM_CODE_CACHE);
  const state = {};
  let names;
  try { names = readdirSync(dir); } catch { return state; }
  for (const name of names) {
    if (!/^[0-9a-f]{16}_(\d|s)$/.test(name)) continue; // the disk cache's entries, not its index
    try {
      const st = statSync(join(dir, name));
      state[name] = `${st.size}:${st.mtimeMs}`;
    } catch { /* removed meanwhile */ }
  }
  return state;
}

/** Whether `now` has an entry file that `before` has not, or one written since. */
export function codeCacheChanged(before, now) {
  return Object.entries(now).some(([name, stamp]) => before[name] !== stamp);
}

/** What the run's wasm code cache held when its browser started (loadProfileCache). */
export function loadedState(profile) {
  try {
    return JSON.parse(readFileSync(join(profile, LOADED), 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Copies the kept folders from `dir` into the fresh `profile`, before the browser starts, and
 * notes what its wasm code cache holds. A copy that fails (another run was swapping them)
 * leaves the profile without them: that run compiles as a first one does.
 */
export function loadProfileCache(dir, profile) {
  try {
    for (const parts of KEPT_FOLDERS) {
      const from = join(dir, SAVED, ...parts);
      if (existsSync(from)) copy(from, join(profile, ...parts));
    }
  } catch {
    rmSync(join(profile, 'Default'), { recursive: true, force: true });
  }
  writeFileSync(join(profile, LOADED), JSON.stringify(codeCacheState(profile)));
}

function folderBytes(path) {
  let total = 0;
  let st;
  try { st = lstatSync(path); } catch { return 0; }
  if (!st.isDirectory()) return st.size;
  for (const name of readdirSync(path)) total += folderBytes(join(path, name));
  return total;
}

/**
 * Copies the kept folders of `profile` (its browser ended) back into `dir` where its wasm code
 * cache changed: into a folder of their own, which then takes the place of the saved ones (a
 * rename), so that a run that copies them in meanwhile sees the old or the new, or fails and
 * goes without. Of two runs that end together, the later one's folders stay. Folders over
 * PAGE_CACHE_LIMIT_BYTES are not kept (the next run starts a new cache). Returns what it did.
 */
export function saveProfileCache(profile, dir) {
  if (!codeCacheChanged(loadedState(profile), codeCacheState(profile))) return 'unchanged';
  const tag = `${process.pid}-${Date.now()}`;
  const fresh = join(dir, `.saving-${tag}`);
  const old = join(dir, `.old-${tag}`);
  try {
    mkdirSync(fresh, { mode: 0o700 });
    for (const parts of KEPT_FOLDERS) {
      const from = join(profile, ...parts);
      if (existsSync(from)) copy(from, join(fresh, ...parts));
    }
    dropSupersededCode(join(fresh, ...WASM_CODE_CACHE));
    if (folderBytes(fresh) > PAGE_CACHE_LIMIT_BYTES) {
      rmSync(join(dir, SAVED), { recursive: true, force: true });
      return 'over the limit: dropped';
    }
    try {
      renameSync(join(dir, SAVED), old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    renameSync(fresh, join(dir, SAVED));
    return 'saved';
  } catch (err) {
    return `not saved: ${err.code ?? err.message}`;
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * After a run of the module `sha256` on `port`: V8 hands a module's optimized code to the cache
 * as it makes it (with --wasm-caching-timeout-ms=0, each 1,000 bytes of it), so a write may be
 * on its way when the program ends, and the browser is about to be killed. Where the profile's
 * wasm code cache was written during the run, waits until it has stayed still for `quietMs`
 * (at most `maxMs`); where not, waits up to `graceMs` for optimizing compiles still running to
 * be cached, once per module and port (a marker in `dir`): a module too short-lived to be
 * optimized does not hold up its later runs. Resolves { waitedMs, written }.
 */
export async function awaitCodeCacheWrite(profile, dir, { sha256, port, graceMs = 200, quietMs = 150, maxMs = 2000, pollMs = 25 }) {
  const started = performance.now();
  const before = loadedState(profile);
  let last = codeCacheState(profile);
  let written = codeCacheChanged(before, last);
  const marker = join(dir, WAITED, `${sha256}-${port}`);
  if (!written && existsSync(marker)) return { waitedMs: 0, written: false };
  // the newest write, by the files' times (a write during the run may be long done)
  const newest = (state) => Math.max(0, ...Object.values(state).map((stamp) => Number(stamp.split(':')[1])));
  for (;;) {
    const waited = performance.now() - started;
    if (written ? Date.now() - newest(last) >= quietMs || waited >= maxMs : waited >= graceMs) break;
    await sleep(pollMs);
    const now = codeCacheState(profile);
    written ||= codeCacheChanged(before, now);
    last = now;
  }
  try {
    mkdirSync(join(dir, WAITED), { recursive: true, mode: 0o700 });
    writeFileSync(marker, '');
  } catch { /* waited again next time */ }
  return { waitedMs: performance.now() - started, written };
}
