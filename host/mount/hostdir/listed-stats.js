// The stats a READDIR of a host-directory mount took anyway (one lstat per entry, for d_ino),
// kept briefly for the `stat` of each entry that usually follows (`ls -l`, `du`, `find`, a
// recursive walk): that STAT is then answered without a system call. docs/MOUNTS.md, "Stats
// from a listing", says what may be stale and for how long:
// - each is used once, and only within TTL_MS of the listing;
// - any call of the program that may change the mount (every op but the read-only ones below),
//   on any thread, makes every listing taken before it unusable: a shared counter (`changes`,
//   an Int32Array on a SharedArrayBuffer) moves after such a call, and a listing remembers its
//   value from before its lstats;
// - a final symlink is never answered for a STAT that follows it (lstat is not stat there);
// - a name that a listing of its directory (or of one above it) lacks is ENOENT, under the same
//   two rules but as often as asked: a walk's probes for `.gitignore` in every directory.
// So only a change made by another process within TTL_MS of the listing can be missed.
//
// A listing is kept as the Buffer it came in (host/platform/mount-addon.js's layout, sorted by name), and a
// STAT finds its entry by the path's bytes, by a binary search: nothing is decoded or hashed per
// entry, which would cost a walk more than the system calls the listing saves.
import { O } from '../../abi/linux.js';
import { OP } from '../../abi/mount-request.js';
import { hasStatAt, nameAt, nameLengthAt, statAt as entryStatAt } from '../../platform/mount-addon.js';

const TTL_MS = 100;
const MAX_KEPT = 8192; // entries per thread; beyond, the older listings are dropped
const READ_ONLY = new Set([OP.CLOSE, OP.PREAD, OP.FSTAT, OP.FSYNC, OP.READDIR, OP.STAT, OP.READLINK]);
const SLASH = 0x2f;
const DOT = 0x2e;
/** What take() did: wrote a kept stat, found the name missing, or left the STAT to the host. */
export const TAKEN = 1;
export const ABSENT = 2;
export const NOT_KEPT = 0;
const STAT_BYTES = 64;
const MODE = 8; // st_mode's offset in the protocol's stat
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const encoder = new TextEncoder();

/** Whether a request (op, flags) may change what a stat of the mount reports. */
export const mayChange = (op, flags) => !READ_ONLY.has(op) && (op !== OP.OPEN || (flags & (O.CREAT | O.TRUNC)) !== 0);

// Whether the n bytes at `from` in bytes (a Uint8Array) equal those at `at` in memory (a DataView)
function sameBytes(bytes, from, view, at, n) {
  for (let i = 0; i < n; i++) if (bytes[from + i] !== view.getUint8(at + i)) return false;
  return true;
}

// strcmp's order of the name of `length` bytes at `from` in bytes against the n bytes at `at` in
// memory: < 0, 0 or > 0
function compareName(bytes, from, length, view, at, n) {
  const common = Math.min(length, n);
  for (let i = 0; i < common; i++) {
    const d = bytes[from + i] - view.getUint8(at + i);
    if (d !== 0) return d;
  }
  return length - n;
}

// A name a listing could hold: not '', '.' or '..' (which no listing holds, and which are there)
function listable(view, at, n) {
  return n > 2 || (n === 1 && view.getUint8(at) !== DOT) ||
    (n === 2 && !(view.getUint8(at) === DOT && view.getUint8(at + 1) === DOT));
}

export class ListedStats {
  #listings = []; // newest last: { dir (its relative path's bytes), buf, stats (a DataView of buf), starts, taken, at, changes }
  #kept = 0; // entries in #listings

  /** changes: Int32Array of the mount's shared counter of changing calls. */
  constructor(changes) {
    this.changes = changes;
  }

  /** A call that may change the mount is over (on this thread). */
  changed() {
    Atomics.add(this.changes, 0, 1);
  }

  /** Before the lstats of a listing: what they will be remembered under. */
  listing() {
    return { at: performance.now(), changes: Atomics.load(this.changes, 0) };
  }

  /** Keeps the listing of directory rel (its Buffer and entryStarts), taken as `from` said. */
  keep(rel, buf, starts, from) {
    const dir = encoder.encode(rel);
    this.#drop((l) => l.dir.length === dir.length && l.dir.every((byte, i) => byte === dir[i]));
    while (this.#listings.length && this.#kept + starts.length > MAX_KEPT) this.#drop((l) => l === this.#listings[0]);
    if (starts.length > MAX_KEPT) return;
    const stats = new DataView(buf.buffer, buf.byteOffset, buf.length);
    this.#listings.push({ dir, buf, stats, starts, taken: new Uint8Array(starts.length), ...from });
    this.#kept += starts.length;
  }

  #drop(which) {
    const i = this.#listings.findIndex(which);
    if (i < 0) return;
    this.#kept -= this.#listings[i].starts.length;
    this.#listings.splice(i, 1);
  }

  /**
   * Answers a STAT of the relative path in memory (`view`) at pathAt, pathLength bytes (checked
   * to lie in it), from a listing still good for it (follow: of a final symlink's target):
   * TAKEN when it wrote the stat's 64 protocol bytes at statAt (once per entry); ABSENT when a
   * listing of its directory, or of a directory above it, lacks the next name of the path (a
   * `.gitignore` probe, `.git/info/exclude`): ENOENT with no system call; else NOT_KEPT. A path
   * with a byte from 0x80 is left to the host, which checks it is UTF-8. (Bytes are read where
   * they are: a view per call costs more than the search.)
   */
  take(view, pathAt, pathLength, follow, statAt) {
    if (this.#kept === 0) return NOT_KEPT;
    let slash = -1;
    for (let i = 0; i < pathLength; i++) {
      const byte = view.getUint8(pathAt + i);
      if (byte >= 0x80) return NOT_KEPT;
      if (byte === SLASH) slash = i;
    }
    const dirLength = Math.max(slash, 0);
    for (let l = this.#listings.length - 1; l >= 0; l--) {
      const listing = this.#listings[l];
      const { dir } = listing;
      if (dir.length === dirLength && sameBytes(dir, 0, view, pathAt, dirLength)) {
        return this.#takeFrom(listing, view, pathAt + slash + 1, pathLength - slash - 1, follow, statAt);
      }
      // a directory above: its listing may lack the path's next name
      if (dir.length < dirLength && (dir.length === 0 || view.getUint8(pathAt + dir.length) === SLASH) &&
        sameBytes(dir, 0, view, pathAt, dir.length)) {
        const from = dir.length === 0 ? 0 : dir.length + 1;
        let end = from;
        while (view.getUint8(pathAt + end) !== SLASH) end++;
        if (this.#lacks(listing, view, pathAt + from, end - from)) return ABSENT;
      }
    }
    return NOT_KEPT;
  }

  // Whether a listing still good lacks the name (searched already when `found` is given).
  #lacks(listing, view, nameAtMemory, nameLength, found = this.#find(listing, view, nameAtMemory, nameLength)) {
    return found < 0 && listable(view, nameAtMemory, nameLength) && this.#good(listing);
  }

  #good(listing) {
    return listing.changes === Atomics.load(this.changes, 0) && performance.now() - listing.at <= TTL_MS;
  }

  // The index of the name among the listing's entries, or -1.
  #find(listing, view, nameAtMemory, nameLength) {
    const { buf, starts } = listing;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = starts[mid];
      const order = compareName(buf, nameAt(at), nameLengthAt(buf, at), view, nameAtMemory, nameLength);
      if (order < 0) lo = mid + 1;
      else if (order > 0) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  #takeFrom(listing, view, nameAtMemory, nameLength, follow, statAt) {
    const i = this.#find(listing, view, nameAtMemory, nameLength);
    if (i < 0) return this.#lacks(listing, view, nameAtMemory, nameLength, i) ? ABSENT : NOT_KEPT;
    const { buf, stats, starts, taken } = listing;
    if (taken[i] || !hasStatAt(buf, starts[i])) return NOT_KEPT;
    taken[i] = 1;
    if (!this.#good(listing)) return NOT_KEPT;
    const from = entryStatAt(starts[i]);
    if (follow && (stats.getUint32(from + MODE, true) & S_IFMT) === S_IFLNK) return NOT_KEPT;
    for (let b = 0; b < STAT_BYTES; b += 4) view.setUint32(statAt + b, stats.getUint32(from + b, true), true);
    return TAKEN;
  }
}
