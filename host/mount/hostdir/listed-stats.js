// The stats a READDIR of a host-directory mount took anyway (one lstat per entry, for d_ino),
// kept briefly for the `stat` of each entry that usually follows (`ls -l`, `du`, `find`, a
// recursive walk): that STAT is then answered without a system call. docs/MOUNTS.md, "Stats
// from a listing", says what may be stale and for how long:
// - each is used once, and only within TTL_MS of the listing;
// - any call of the program that may change the mount (every op but the read-only ones below),
//   on any thread, makes every listing taken before it unusable: a shared counter (`changes`,
//   an Int32Array on a SharedArrayBuffer) moves after such a call, and a listing remembers its
//   value from before its lstats;
// - a final symlink is never answered for a STAT that follows it (lstat is not stat there).
// So only a change made by another process within TTL_MS of the listing can be missed.
import { O } from '../../abi/linux.js';
import { OP } from '../../abi/mount-request.js';

const TTL_MS = 100;
const MAX_KEPT = 8192; // entries per thread; beyond, the older listings are dropped
const READ_ONLY = new Set([OP.CLOSE, OP.PREAD, OP.FSTAT, OP.FSYNC, OP.READDIR, OP.STAT, OP.READLINK]);

/** Whether a request (op, flags) may change what a stat of the mount reports. */
export const mayChange = (op, flags) => !READ_ONLY.has(op) && (op !== OP.OPEN || (flags & (O.CREAT | O.TRUNC)) !== 0);

export class ListedStats {
  #kept = new Map(); // relative path -> { st, at, changes }

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

  /** Keeps st (a node:fs BigIntStats) of the entry at relative path rel, from listing `from`. */
  keep(rel, st, from) {
    if (this.#kept.size >= MAX_KEPT) this.#kept.clear();
    this.#kept.set(rel, { st, ...from });
  }

  /** The stat of rel from a listing, if still good for a STAT (follow: of a final symlink's target); once. */
  take(rel, follow) {
    if (this.#kept.size === 0) return null;
    const e = this.#kept.get(rel);
    if (e === undefined) return null;
    this.#kept.delete(rel);
    if (e.changes !== Atomics.load(this.changes, 0) || performance.now() - e.at > TTL_MS) return null;
    if (follow && e.st.isSymbolicLink()) return null;
    return e.st;
  }
}
