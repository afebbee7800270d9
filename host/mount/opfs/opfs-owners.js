// Which I/O worker of an OPFS mount holds a file's one sync access handle (docs/OPFS.md, "One
// sync access handle per file"). Firefox allows one sync access handle per file (it ignores the
// 'readwrite-unsafe' mode), so every open of a file is served by the worker that opened it first:
// another worker that gets an OPEN for a held path forwards the request to the holder's ring.
// A table in a SharedArrayBuffer that every worker of the mount sees: per hash bucket of paths
// the holder (worker + 1, 0 = none) and how many held files of that worker fall in the bucket.
// Only a bucket's holder changes its count or frees it; any worker may take a free bucket. Two
// paths that share a bucket share a holder: that only costs balance, never correctness.
const SLOTS = 1 << 14;

/** A new, empty owners table (the coordinator makes one per mount). */
export const createOwners = () => new SharedArrayBuffer(SLOTS * 8);

// FNV-1a (32 bits) of the path, to a bucket
function slotOf(path) {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (SLOTS - 1);
}

export class Owners {
  /** owners: the mount's table; w: this worker's index. */
  constructor(owners, w) {
    this.holder = new Int32Array(owners, 0, SLOTS);
    this.count = new Int32Array(owners, SLOTS * 4, SLOTS);
    this.me = w + 1;
  }

  /** The worker that holds path's bucket, or -1 when none does. */
  holderOf(path) {
    return Atomics.load(this.holder, slotOf(path)) - 1;
  }

  /** Takes path's bucket for this worker: -1 when it is ours now, else the worker holding it. */
  claim(path) {
    const slot = slotOf(path);
    const was = Atomics.compareExchange(this.holder, slot, 0, this.me);
    if (was !== 0 && was !== this.me) return was - 1;
    Atomics.add(this.count, slot, 1);
    return -1;
  }

  /** This worker no longer holds path (claimed before). */
  release(path) {
    const slot = slotOf(path);
    if (Atomics.sub(this.count, slot, 1) === 1) Atomics.store(this.holder, slot, 0);
  }
}
