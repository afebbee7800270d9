// Path walking for the OPFS backend: a mount-relative path (docs/MOUNTS.md: no leading '/', no
// empty, "." or ".." components) to directory handles, with a cache of the directories this
// worker walked through, dropped whenever the namespace epoch moves (opfs-identity.js).
import { ERRNO as E } from '../../abi/linux.js';
import { Errno, errnoOf } from './opfs-errors.js';
import { EpochCache } from './opfs-identity.js';

const NAME_MAX = 255;
const DIR_CACHE_MAX = 4096;
const encoder = new TextEncoder();

/** The components of rel ([] for the mount's root); EACCES for an empty, "." or ".." one. */
export function splitPath(rel) {
  if (rel === '') return [];
  const parts = rel.split('/');
  for (const p of parts) {
    if (p === '' || p === '.' || p === '..') throw new Errno(E.EACCES, `refused path component '${p}'`);
    if (encoder.encode(p).length > NAME_MAX) throw new Errno(E.ENAMETOOLONG);
  }
  return parts;
}

export class PathWalker {
  /** root: Promise<FileSystemDirectoryHandle> (the mount's directory); identity: an Identity. */
  constructor(root, identity) {
    this.root = root;
    this.identity = identity;
    this.dirs = new EpochCache(identity, DIR_CACHE_MAX); // directory handles by path
  }

  /** The cached handle of directory `parts` (non-empty), or undefined: no OPFS call. */
  known(parts) {
    return this.dirs.current().get(parts.join('/'));
  }

  /** The directory handle of `parts` (all of them). */
  async dirOf(parts) {
    const dirs = this.dirs.current();
    let dir = await this.root;
    let i = parts.length;
    for (; i > 0; i--) {
      const cached = dirs.get(parts.slice(0, i).join('/'));
      if (cached) { dir = cached; break; }
    }
    for (; i < parts.length; i++) {
      try {
        dir = await dir.getDirectoryHandle(parts[i]);
      } catch (err) {
        throw new Errno(errnoOf(err, { typeMismatch: E.ENOTDIR }));
      }
      this.dirs.keep(parts.slice(0, i + 1).join('/'), dir);
    }
    return dir;
  }

  /** { dir, name, parts } for the last component of rel (rel must not be the root). */
  async parentOf(rel) {
    const parts = splitPath(rel);
    if (parts.length === 0) throw new Errno(E.EBUSY); // the mount's root
    return { dir: await this.dirOf(parts.slice(0, -1)), name: parts.at(-1), parts };
  }
}

/** The entry's handle, or null when missing. */
export async function lookup(dir, name) {
  try {
    return await dir.getFileHandle(name);
  } catch (err) {
    if (err.name === 'TypeMismatchError') return dir.getDirectoryHandle(name);
    if (err.name === 'NotFoundError') return null;
    throw err;
  }
}
