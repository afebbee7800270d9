// Preloaded files: the "spindle.preload" format, which `spindle cc --preload-file` appends to a
// module as a custom section and `spindle run --preload` hands to the host, and how the host
// puts such files into the tree before main (through the files API, so each file's bytes are
// copied once, from the section straight into the file's chunks).
//
// Format, little-endian: "SPPL", u32 version (1), u32 entry count, then per entry:
//   u8 kind (1 directory, 2 file), u32 mode (permission bits), u32 path length, u64 size,
//   the path (UTF-8, absolute), then `size` bytes of content (files only).
// Directories come before what they hold.
export const PRELOAD_SECTION = 'spindle.preload';
export const KIND = { DIR: 1, FILE: 2 };
const MAGIC = 0x4c505053; // "SPPL"
const HEADER = 12;
const ENTRY = 21;

/**
 * Packs entries [{ kind, path, mode, size }] into one buffer; `fill(entry, bytes)` writes each
 * file's content into its place (so a reader can read straight into it, with no extra copy).
 */
export function packPreload(entries, fill) {
  const encoder = new TextEncoder();
  const paths = entries.map((e) => encoder.encode(e.path));
  const total = entries.reduce((n, e, i) => n + ENTRY + paths[i].length + (e.kind === KIND.FILE ? e.size : 0), HEADER);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, 1, true);
  view.setUint32(8, entries.length, true);
  let at = HEADER;
  entries.forEach((e, i) => {
    const size = e.kind === KIND.FILE ? e.size : 0;
    view.setUint8(at, e.kind);
    view.setUint32(at + 1, e.mode, true);
    view.setUint32(at + 5, paths[i].length, true);
    view.setBigUint64(at + 9, BigInt(size), true);
    out.set(paths[i], at + ENTRY);
    at += ENTRY + paths[i].length;
    if (size) fill(e, out.subarray(at, at + size));
    at += size;
  });
  return out;
}

/** Entries [{ kind, path, mode, data }] of packed bytes; data are views, not copies. */
export function parsePreload(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const bad = (why) => new Error(`preload data is corrupt: ${why}`);
  if (u8.length < HEADER || view.getUint32(0, true) !== MAGIC) throw bad('no SPPL header');
  if (view.getUint32(4, true) !== 1) throw bad(`version ${view.getUint32(4, true)} is not 1`);
  const decoder = new TextDecoder();
  const entries = [];
  let at = HEADER;
  for (let n = view.getUint32(8, true); n > 0; n--) {
    if (at + ENTRY > u8.length) throw bad('truncated entry');
    const kind = view.getUint8(at);
    const mode = view.getUint32(at + 1, true);
    const pathLen = view.getUint32(at + 5, true);
    const size = Number(view.getBigUint64(at + 9, true));
    const pathEnd = at + ENTRY + pathLen;
    if (pathEnd + size > u8.length) throw bad('truncated entry');
    const path = decoder.decode(u8.subarray(at + ENTRY, pathEnd));
    entries.push({ kind, mode, path, data: u8.subarray(pathEnd, pathEnd + size) });
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

/** Puts the entries of packed preload bytes into the tree; all requests are queued at once. */
export async function applyPreload(files, bytes) {
  const entries = parsePreload(bytes);
  await Promise.all(entries.map((e) => (e.kind === KIND.DIR
    ? files.mkdir(e.path, { recursive: true, mode: e.mode })
    : files.writeFile(e.path, e.data, { mode: e.mode }))));
}
