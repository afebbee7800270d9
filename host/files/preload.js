// Preloaded files: the "spindle.preload" format, which `spindle cc --preload-file` appends to a
// module as a custom section and `spindle run --preload` hands to the host, and how the host
// puts such files into the tree before main (through the files API, so each file's bytes are
// copied once, from the section straight into the file's chunks).
//
// Format, little-endian: "SPPL", u32 version (2), u32 entry count, then per entry:
//   u8 kind (1 directory, 2 file, 3 symlink), u32 mode (permission bits), u32 path length,
//   u64 size, i64 atime, i64 mtime, i64 ctime (nanoseconds since 1970; all three NO_TIME for a
//   directory made only to hold others: it keeps the load time), the path (UTF-8, absolute),
//   then `size` bytes of content: a file's bytes, a symlink's target (none for a directory).
// Directories come before what they hold. Version 1 (no times, no symlinks) is still read.
import { MODE_KEEP, OP, PATH_MAX } from './mailbox.js';

export const PRELOAD_SECTION = 'spindle.preload';
export const KIND = { DIR: 1, FILE: 2, SYMLINK: 3 };
export const NO_TIME = -(2n ** 63n);
const MAGIC = 0x4c505053; // "SPPL"
const VERSION = 2;
const HEADER = 12;
const ENTRY = { 1: 21, 2: 45 }; // bytes before the path, by version
const hasContent = (kind) => kind !== KIND.DIR;

/**
 * Packs entries [{ kind, path, mode, size, times }] into one buffer (times: [atime, mtime,
 * ctime] as BigInt ns, or null); `fill(entry, bytes)` writes each file's content or link's
 * target into its place (so a reader can read straight into it, with no extra copy).
 */
export function packPreload(entries, fill) {
  const encoder = new TextEncoder();
  const paths = entries.map((e) => encoder.encode(e.path));
  const sizeOf = (e) => (hasContent(e.kind) ? e.size : 0);
  const total = entries.reduce((n, e, i) => n + ENTRY[VERSION] + paths[i].length + sizeOf(e), HEADER);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, entries.length, true);
  let at = HEADER;
  entries.forEach((e, i) => {
    const size = sizeOf(e);
    view.setUint8(at, e.kind);
    view.setUint32(at + 1, e.mode, true);
    view.setUint32(at + 5, paths[i].length, true);
    view.setBigUint64(at + 9, BigInt(size), true);
    (e.times ?? [NO_TIME, NO_TIME, NO_TIME]).forEach((ns, t) => view.setBigInt64(at + 17 + t * 8, ns, true));
    out.set(paths[i], at + ENTRY[VERSION]);
    at += ENTRY[VERSION] + paths[i].length;
    if (size) fill(e, out.subarray(at, at + size));
    at += size;
  });
  return out;
}

/** Entries [{ kind, path, mode, data, times }] of packed bytes; data are views, not copies. */
export function parsePreload(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const bad = (why) => new Error(`preload data is corrupt: ${why}`);
  if (u8.length < HEADER || view.getUint32(0, true) !== MAGIC) throw bad('no SPPL header');
  const version = view.getUint32(4, true);
  const entrySize = ENTRY[version];
  if (!entrySize) throw bad(`version ${version} is not 1 or 2`);
  const decoder = new TextDecoder();
  const entries = [];
  let at = HEADER;
  for (let n = view.getUint32(8, true); n > 0; n--) {
    if (at + entrySize > u8.length) throw bad('truncated entry');
    const kind = view.getUint8(at);
    if (!Object.values(KIND).includes(kind)) throw bad(`unknown entry kind ${kind}`);
    const mode = view.getUint32(at + 1, true);
    const pathLen = view.getUint32(at + 5, true);
    const size = Number(view.getBigUint64(at + 9, true));
    const times = version > 1 ? [0, 1, 2].map((t) => view.getBigInt64(at + 17 + t * 8, true)) : null;
    const pathEnd = at + entrySize + pathLen;
    if (pathEnd + size > u8.length) throw bad('truncated entry');
    const path = decoder.decode(u8.subarray(at + entrySize, pathEnd));
    entries.push({ kind, mode, path, data: u8.subarray(pathEnd, pathEnd + size), times: times?.[0] === NO_TIME ? null : times });
    at = pathEnd + size;
  }
  return entries;
}

/**
 * The preload bytes of a compiled program's custom section, or null: `compile` keeps them as a
 * view of the module's bytes; otherwise they are asked of the module once (a copy).
 */
export function preloadSection(compiled) {
  if (compiled.preload === undefined) {
    const sections = WebAssembly.Module.customSections(compiled.module, PRELOAD_SECTION);
    compiled.preload = sections.length ? new Uint8Array(sections[0]) : null;
  }
  return compiled.preload;
}

/**
 * The steps that put the entries of packed preload images (a module's own first, then a run's)
 * into the tree, as requests of the files service's kind ({ op, path, path2, mode, data, times,
 * tolerate, isDir }; paths and link targets as bytes). runtime/wasi/files_api_service.c runs them on
 * the C main's thread before any of the program's code (host/files/preload-serve.js serves them).
 */
export function preloadSteps(images) {
  const encoder = new TextEncoder();
  // a path (or a link's target) as the runtime's request takes it: under PATH_MAX with its NUL
  const bytesOf = (text, what, path = text) => {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    if (bytes.length === 0 || bytes.includes(0) || bytes.length >= PATH_MAX) {
      throw new Error(`${path}: the ${what} is empty, holds a NUL or is ${PATH_MAX} bytes or longer`);
    }
    return bytes;
  };
  const links = new Set(); // links an earlier image put in: a file put there later replaces them
  const steps = [];
  const restore = (e, mode) => e.times && steps.push({ op: OP.RESTORE_ATTRS, path: bytesOf(e.path, 'path'), mode, times: e.times });
  for (const bytes of images) {
    const entries = parsePreload(bytes);
    for (const e of entries) {
      if (!e.path.startsWith('/')) throw new Error(`${e.path}: a preloaded path must be absolute`);
      const path = bytesOf(e.path, 'path');
      if (e.kind === KIND.DIR) {
        // every level, as mkdir -p; owner rwx until the directory's own mode comes last, so a
        // read-only one can be filled; the last level must end up a directory
        const parts = e.path.split('/').filter(Boolean);
        const mode = e.times ? e.mode | 0o700 : e.mode;
        parts.forEach((_, i) => steps.push({ op: OP.MKDIR, path: encoder.encode(`/${parts.slice(0, i + 1).join('/')}`), mode, tolerate: 'EEXIST' }));
        steps.push({ op: OP.STAT, path, isDir: true });
      } else if (e.kind === KIND.FILE) {
        // a write would go through a link put there before, into its target
        if (links.delete(e.path)) steps.push({ op: OP.UNLINK, path, tolerate: 'any' });
        steps.push({ op: OP.WRITE, path, mode: e.mode, data: e.data });
        restore(e, e.mode);
      } else {
        // a link replaces what an earlier image put there (a directory stays: symlink fails)
        links.add(e.path);
        steps.push({ op: OP.UNLINK, path, tolerate: 'any' }, { op: OP.SYMLINK, path, path2: bytesOf(e.data, 'link target', e.path) });
        restore(e, MODE_KEEP);
      }
    }
    // directories' times last: putting something into a directory changes its mtime
    for (const e of entries) if (e.kind === KIND.DIR) restore(e, e.mode);
  }
  return steps;
}
