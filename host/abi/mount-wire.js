// What a mount backend writes back into linear memory (docs/MOUNTS.md section 3): the 64-byte
// stat of OPEN, FSTAT and STAT, and READDIR's packed entries. C reads them as
// runtime/fs/mount/mount_wire.h's struct mount_wire_stat and struct mount_wire_dirent;
// tests/abi.test.js checks every offset against it.

/** Byte offsets of struct mount_wire_stat's fields; BYTES is its size. */
export const STAT = { INO: 0, MODE: 8, NLINK: 16, SIZE: 24, BLOCKS: 32, ATIME_NS: 40, MTIME_NS: 48, CTIME_NS: 56, BYTES: 64 };

/**
 * Writes a stat at ptr. st: { ino, mode, nlink, size, blocks, atimeNs, mtimeNs, ctimeNs }, numbers
 * or BigInts (the times in nanoseconds; blocks 0 where the host has none).
 */
export function writeStat(view, ptr, st) {
  view.setBigUint64(ptr + STAT.INO, BigInt(st.ino), true);
  view.setUint32(ptr + STAT.MODE, Number(st.mode), true);
  view.setUint32(ptr + STAT.MODE + 4, 0, true);
  view.setBigUint64(ptr + STAT.NLINK, BigInt(st.nlink), true);
  view.setBigInt64(ptr + STAT.SIZE, BigInt(st.size), true);
  view.setBigInt64(ptr + STAT.BLOCKS, BigInt(st.blocks ?? 0), true);
  view.setBigInt64(ptr + STAT.ATIME_NS, BigInt(st.atimeNs), true);
  view.setBigInt64(ptr + STAT.MTIME_NS, BigInt(st.mtimeNs), true);
  view.setBigInt64(ptr + STAT.CTIME_NS, BigInt(st.ctimeNs), true);
}

/** Byte offsets of struct mount_wire_dirent's fields; BYTES is its size (the name follows). */
export const DIRENT = { NEXT_COOKIE: 0, INO: 8, TYPE: 16, NAME_LEN: 18, BYTES: 24 };
/** Entries start at multiples of this. */
export const DIRENT_ALIGN = 8;

// READDIR's cookies: 0 asks for the first entry; the entry at index i of a listing carries next
// cookie i + 3 (the C side keeps 1 and 2 for "." and "..").
export const FIRST_COOKIE = 3;
/** The next_cookie of the entry at index i. */
export const cookieAfter = (i) => i + FIRST_COOKIE;
/** The index of the entry a READDIR from `cookie` (a number or BigInt) starts at. */
export const indexFrom = (cookie) => (cookie < FIRST_COOKIE ? 0 : Number(cookie) - FIRST_COOKIE + 1);

/** The bytes one entry with a name of nameLen bytes takes, padding included. */
export const direntBytes = (nameLen) => (DIRENT.BYTES + nameLen + DIRENT_ALIGN - 1) & ~(DIRENT_ALIGN - 1);

/** Writes one entry at ptr (name: its bytes); returns the bytes it took. */
export function writeDirent(view, ptr, { next, ino, type, name }) {
  view.setBigUint64(ptr + DIRENT.NEXT_COOKIE, BigInt(next), true);
  view.setBigUint64(ptr + DIRENT.INO, BigInt(ino), true);
  view.setUint8(ptr + DIRENT.TYPE, type);
  view.setUint8(ptr + DIRENT.TYPE + 1, 0);
  view.setUint16(ptr + DIRENT.NAME_LEN, name.length, true);
  view.setUint32(ptr + DIRENT.NAME_LEN + 2, 0, true);
  new Uint8Array(view.buffer, view.byteOffset + ptr + DIRENT.BYTES, name.length).set(name);
  return direntBytes(name.length);
}

/**
 * Writes one entry at `at` of `out` (bytes of linear memory) from bytes the host already holds
 * (a listing): its ino is the 8 bytes at inoAt in `from` (-1: 0), its name the nameLength bytes
 * at nameAt; returns the bytes it took. Byte by byte: names are short, and a view per entry
 * would cost more than the copy.
 */
export function writeDirentFrom(out, at, next, type, from, inoAt, nameAt, nameLength) {
  out.fill(0, at, at + DIRENT.BYTES);
  for (let i = 0; i < 4; i++) out[at + DIRENT.NEXT_COOKIE + i] = (next >>> (8 * i)) & 0xff; // (an index: below 2^32)
  for (let i = 0; inoAt >= 0 && i < 8; i++) out[at + DIRENT.INO + i] = from[inoAt + i];
  out[at + DIRENT.TYPE] = type;
  out[at + DIRENT.NAME_LEN] = nameLength & 0xff;
  out[at + DIRENT.NAME_LEN + 1] = nameLength >>> 8;
  for (let i = 0; i < nameLength; i++) out[at + DIRENT.BYTES + i] = from[nameAt + i];
  return direntBytes(nameLength);
}

/** Reads the entries of a READDIR answer of `bytes` bytes at ptr: [{ next, ino, type, name }]. */
export function readDirents(view, ptr, bytes) {
  const out = [];
  for (let at = 0; at + DIRENT.BYTES <= bytes;) {
    const nameLen = view.getUint16(ptr + at + DIRENT.NAME_LEN, true);
    out.push({
      next: view.getBigUint64(ptr + at + DIRENT.NEXT_COOKIE, true),
      ino: view.getBigUint64(ptr + at + DIRENT.INO, true),
      type: view.getUint8(ptr + at + DIRENT.TYPE),
      name: new Uint8Array(view.buffer, view.byteOffset + ptr + at + DIRENT.BYTES, nameLen).slice(),
    });
    at += direntBytes(nameLen);
  }
  return out;
}
