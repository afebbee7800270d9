// Inode numbers for OPFS, which has no file identity (docs/OPFS.md): a 53-bit FNV-1a of the path
// inside the mount, mixed with that path's generation. The generations live in a buffer every
// worker of the mount sees (host/abi/opfs-generations.js); worker 0 moves a path's generation
// whenever it removes or renames something there, so a file that replaces another at the same
// name gets a new number (the C layer shares one cache object per inode number, docs/MOUNTS.md).
import { EPOCH, SLOTS } from '../../abi/opfs-generations.js';

function fnv(path) {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < path.length; i++) {
    h ^= BigInt(path.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

const slotOf = (path) => Number(fnv(path) % BigInt(SLOTS));

export class Identity {
  /** generations: the mount's generations SharedArrayBuffer. */
  constructor(generations) {
    this.generations = new Int32Array(generations);
  }

  /** The inode number of what is at `path` now. */
  ino(path) {
    const h = fnv(path);
    const g = BigInt(Atomics.load(this.generations, Number(h % BigInt(SLOTS))));
    return ((h ^ (g * 0x9e3779b97f4a7c15n)) & 0x1fffffffffffffn) | 1n;
  }

  /** A new generation for `path`: whatever is there next is a different file. */
  bump(path) {
    Atomics.add(this.generations, slotOf(path), 1);
  }

  /** The namespace epoch: moves whenever a directory is removed or moved. */
  epoch() {
    return Atomics.load(this.generations, EPOCH);
  }

  /** Directories were removed or moved: every worker forgets its directory handles. */
  dirsChanged() {
    Atomics.add(this.generations, EPOCH, 1);
  }
}

/**
 * A worker's cache of handles by path, emptied whenever the namespace epoch has moved since it
 * was last looked at (a directory removed or moved may have changed what any path names).
 */
export class EpochCache {
  /** identity: the mount's Identity; max: entries kept before the cache starts over. */
  constructor(identity, max) {
    this.identity = identity;
    this.max = max;
    this.entries = new Map();
    this.epoch = identity.epoch();
  }

  /** The entries, emptied first if the epoch moved since the last call. */
  current() {
    const epoch = this.identity.epoch();
    if (epoch !== this.epoch) {
      this.entries.clear();
      this.epoch = epoch;
    }
    return this.entries;
  }

  /** Stores key -> value (the caller looked at current() first); at max entries it starts over. */
  keep(key, value) {
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
  }
}
