// Drops the module code in a saved Chromium wasm code cache that no URL points at any more.
// That cache is one of Chromium's "simple" disk caches: a file per entry (`<16 hex>_0`, maybe
// `_1` and `_s` beside it), each beginning with a header and the entry's key. A module's code is
// kept under a key that is its SHA-256 (64 hex digits), and the module's URL has a small entry
// of its own naming that hash. Each time V8 hands over more of a module's code (with
// --wasm-caching-timeout-ms=0, every 1,000 bytes of it; with every function optimized at once,
// 24-33 times in a first run), the whole module's code is written again under a new hash and the
// URL's entry moves to it: the older copies are never read again, yet stay until Chromium's own
// size limit evicts them, and the saved folder would pass its limit in one run (SQLite: 33 copies
// of ~3 MB). An entry Chromium's index still lists but whose file is gone is a miss to it.
import { join } from 'node:path';

const { closeSync, openSync, readdirSync, readFileSync, readSync, rmSync } = process.getBuiltinModule('node:fs');

// The header of an entry file: magic (8 bytes), version, key length, key hash, padding (4 each)
const ENTRY_MAGIC = Buffer.from('305c72a71b6dfbfc', 'hex');
const KEY_AT = 24;
const ENTRY_FILE = /^([0-9a-f]{16})_0$/;
const CODE_KEY = /^[0-9A-F]{64}$/;
const NAMED_HASH = /[0-9A-F]{64}/g;

/** The key of an entry file's bytes, and what follows it; null where it is not one. */
export function entryKey(bytes) {
  if (bytes.length < KEY_AT || !bytes.subarray(0, 8).equals(ENTRY_MAGIC)) return null;
  const length = bytes.readUInt32LE(12);
  if (KEY_AT + length > bytes.length) return null;
  return { key: bytes.toString('latin1', KEY_AT, KEY_AT + length), rest: bytes.subarray(KEY_AT + length) };
}

// Enough of an entry file for its header and a code entry's key: a code entry is the module's
// whole code (SQLite's ~3 MB, 33 of them in a first run), and only its key is wanted.
const HEAD_BYTES = KEY_AT + 64;

/** An entry file's key and what follows it, reading a code entry's head only (entryKey). */
function readEntry(path) {
  const head = Buffer.alloc(HEAD_BYTES);
  const fd = openSync(path, 'r');
  let got;
  try { got = readSync(fd, head, 0, HEAD_BYTES, 0); } finally { closeSync(fd); }
  const parsed = entryKey(head.subarray(0, got));
  return parsed && CODE_KEY.test(parsed.key) ? parsed : entryKey(readFileSync(path));
}

/**
 * The entry files (their 16-hex names) in the cache folder `dir` that hold a module's code no
 * URL entry names. None where any entry file cannot be read as one (nothing is dropped on doubt).
 */
export function supersededCodeEntries(dir) {
  let names;
  try { names = readdirSync(dir); } catch { return []; }
  const code = new Map(); // hash -> entry name
  const named = new Set();
  for (const name of names) {
    const entry = ENTRY_FILE.exec(name)?.[1];
    if (!entry) continue;
    let parsed;
    try { parsed = readEntry(join(dir, name)); } catch { return []; }
    if (!parsed) return [];
    if (CODE_KEY.test(parsed.key)) code.set(parsed.key, entry);
    else for (const hash of parsed.rest.toString('latin1').match(NAMED_HASH) ?? []) named.add(hash);
  }
  if (!named.size) return [];
  return [...code].filter(([hash]) => !named.has(hash)).map(([, entry]) => entry);
}

/** Removes the superseded code entries of the cache folder `dir` (each entry's files); how many. */
export function dropSupersededCode(dir) {
  const entries = supersededCodeEntries(dir);
  if (!entries.length) return 0;
  const files = readdirSync(dir);
  for (const entry of entries) {
    for (const name of files) if (name.startsWith(`${entry}_`)) rmSync(join(dir, name), { force: true });
  }
  return entries.length;
}
