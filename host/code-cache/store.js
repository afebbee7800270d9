// Where compiled code is kept between runs, and how a file is checked before V8 sees it
// (docs/HOST.md, "Compiled-code cache"). One file per module and compile setting, named by the
// SHA-256 of the wire bytes and everything else V8's code depends on; each file holds its
// payload's SHA-256, so a torn or damaged file is a miss, never code that runs. `sha256` is the
// addon's (OpenSSL's, in Node's binary): node:crypto would load 17 of Node's modules first.
// (Node's built-ins by getBuiltinModule: bin/spindle's start loads this before any cache is on)
const { join } = process.getBuiltinModule('node:path');
const { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } = process.getBuiltinModule('node:fs');

const MAGIC = Buffer.from('SPNDLWC1');
const HEADER_BYTES = MAGIC.length + 32; // magic, then the payload's SHA-256
// The cache keeps its newest files (by last use) within this many bytes.
export const CACHE_LIMIT_BYTES = 256 * 1024 * 1024;
// A hit marks its file used (its mtime) where the mark is older than this.
const MARK_USED_AFTER_MS = 60 * 60 * 1000;

// os.homedir() answers $HOME where it is set, on POSIX; node:os loads only where it is not (~0.4 ms
// of every start otherwise).
const homeDir = (env) => (process.platform !== 'win32' && env.HOME) || process.getBuiltinModule('node:os').homedir();

/** The cache directory: SPINDLE_CODE_CACHE_DIR, else $XDG_CACHE_HOME/spindle/code, else ~/.cache/spindle/code. */
export function defaultCacheDir(env = process.env) {
  if (env.SPINDLE_CODE_CACHE_DIR) return env.SPINDLE_CODE_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homeDir(env), '.cache'), 'spindle', 'code');
}

/**
 * Makes `dir` (mode 0700) if needed and says why it cannot be used, or null where it can: the
 * cache runs machine code from it, so it must be this user's and writable by no one else.
 */
export function unusableReason(dir) {
  let st;
  try {
    // (a stat first: the folder is there on every run but the first, and one system call is
    // what a run's start can spare)
    st = statSync(dir, { throwIfNoEntry: false });
    if (!st) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = statSync(dir);
    }
  } catch (err) {
    return `${dir}: ${err.code ?? err.message}`;
  }
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`;
  if (st.mode & 0o022) return `${dir} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/** The file name for `wire` compiled under `setting` (a string naming Node, V8 flags and tiers). */
export function cacheKey(sha256, wire, setting) {
  return sha256(Buffer.from(`${setting}\0`), wire).toString('hex');
}

/** The cached code for `key`, checked, or null. A hit marks the file used (its mtime, to the hour). */
export function readCode(sha256, dir, key) {
  const path = join(dir, `${key}.code`);
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const { size, mtimeMs } = fstatSync(fd);
    if (size <= HEADER_BYTES) return null;
    const file = Buffer.allocUnsafe(size);
    if (readSync(fd, file, 0, size, 0) !== size) return null;
    const payload = file.subarray(HEADER_BYTES);
    if (!file.subarray(0, MAGIC.length).equals(MAGIC) || !file.subarray(MAGIC.length, HEADER_BYTES).equals(sha256(payload))) return null;
    // (to the hour: the oldest are removed first, and a write is a start's time)
    if (Date.now() - mtimeMs > MARK_USED_AFTER_MS) {
      const now = new Date();
      try { utimesSync(path, now, now); } catch { /* a read-only cache still serves */ }
    }
    return payload;
  } finally {
    closeSync(fd);
  }
}

/** Stores `code` for `key`: written whole under a temporary name, then renamed, so readers see all or nothing. */
export function writeCode(sha256, dir, key, code) {
  const path = join(dir, `${key}.code`);
  const part = `${path}.${process.pid}.part`;
  try {
    writeFileSync(part, Buffer.concat([MAGIC, sha256(code), code]), { mode: 0o600 });
    renameSync(part, path);
  } catch (err) {
    try { unlinkSync(part); } catch { /* never written */ }
    return `${path}: ${err.code ?? err.message}`;
  }
  pruneCache(dir);
  return null;
}

// A write's temporary file older than this was cut short (its process killed, or a thread
// worker ended while writing) and is removed.
const STALE_PART_MS = 60 * 60 * 1000;
// A maker's note of why it stored no code (compile-cached.js, noteUnmade) explains the next runs'
// misses; one of a module not run for this long explains nothing.
const UNMADE_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes the least recently used files until the cache is within CACHE_LIMIT_BYTES, and the
 * temporary files of writes that never finished.
 */
export function pruneCache(dir, limit = CACHE_LIMIT_BYTES) {
  removeOlder(dir, '.part', STALE_PART_MS);
  removeOlder(dir, '.unmade', UNMADE_KEPT_MS);
  const files = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.code')) continue;
    try {
      const st = statSync(join(dir, name));
      files.push({ name, size: st.size, used: st.mtimeMs });
    } catch { /* removed meanwhile */ }
  }
  let total = files.reduce((sum, f) => sum + f.size, 0);
  files.sort((a, b) => a.used - b.used);
  for (const f of files) {
    if (total <= limit) break;
    try { unlinkSync(join(dir, f.name)); } catch { /* removed meanwhile */ }
    total -= f.size;
  }
}

/** Removes the files of `dir` whose names end with `suffix` and which were not written for `ageMs`. */
export function removeOlder(dir, suffix, ageMs) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(suffix)) continue;
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs > ageMs) unlinkSync(join(dir, name));
    } catch { /* removed meanwhile */ }
  }
}
