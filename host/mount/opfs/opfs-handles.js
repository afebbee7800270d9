// The FileSystemFileHandles of files the program created, opened or looked at, by path inside
// the mount (docs/OPFS.md, "What a worker caches"): a stat of such a file is one getFile() and an
// unlink one removeEntry(), with no getFileHandle() walk to find the entry again (~0.2-0.4 ms
// each in Chromium). An entry remembers the path's inode number when it was stored; worker 0
// moves that number for every removal or rename at the path, and the namespace epoch for every
// directory removed or moved (opfs-identity.js, in memory all workers of the mount see), so an
// entry is dropped as soon as it could name something else. Changes made by another page of the
// origin are not seen (docs/OPFS.md).
import { EpochCache } from './opfs-identity.js';

const MAX_ENTRIES = 8192;

export class FileHandles {
  /** identity: the mount's Identity (inode numbers and the namespace epoch). */
  constructor(identity) {
    this.identity = identity;
    this.cache = new EpochCache(identity, MAX_ENTRIES); // path -> { fh, ino }
  }

  /** The file handle stored for path, or null (none, or the path changed since). */
  get(path) {
    const entries = this.cache.current();
    const entry = entries.get(path);
    if (!entry) return null;
    if (entry.ino === this.identity.ino(path)) return entry.fh;
    entries.delete(path);
    return null;
  }

  /**
   * Keeps fh as the file at path; ino: the path's inode number when fh was found there. False
   * when a handle for that path and number was kept already.
   */
  set(path, fh, ino = this.identity.ino(path)) {
    if (this.cache.current().get(path)?.ino === ino) return false;
    this.cache.keep(path, { fh, ino });
    return true;
  }
}
