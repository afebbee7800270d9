// The OPFS backend's operations (docs/MOUNTS.md section 3, docs/OPFS.md): runs inside an OPFS I/O
// worker (host/mount/opfs-worker.js), never on a page's main thread. One FileSystemSyncAccessHandle
// per open file, in 'readwrite-unsafe' mode so that several opens of one file (on several I/O
// workers) can coexist; reads and writes go straight between the handle and the program's linear
// memory (the handle takes views on a SharedArrayBuffer: no staging copy).
//
// Namespace operations all run on worker 0. OPFS refuses to remove or move a file while any sync
// access handle on it is open (NoModificationAllowedError), so when that happens worker 0 asks
// every worker to *detach* the file: an unlinked file's open descriptions keep its bytes in
// JavaScript memory (readable and writable until closed, as on Linux); a renamed file's handles
// are closed and reopened at the new name once the move is done.

const E = {
  EPERM: 1, ENOENT: 2, EIO: 5, EBADF: 9, EACCES: 13, EBUSY: 16, EEXIST: 17, EXDEV: 18, ENOTDIR: 20,
  EISDIR: 21, EINVAL: 22, EFBIG: 27, ENOSPC: 28, ENAMETOOLONG: 36, ENOTEMPTY: 39, ELOOP: 40, ENOTSUP: 95,
};
export const OP = {
  OPEN: 1, CLOSE: 2, PREAD: 3, PWRITE: 4, FSTAT: 5, FTRUNCATE: 6, FSYNC: 7, READDIR: 8, STAT: 9,
  MKDIR: 10, UNLINK: 11, RENAME: 12, LINK: 13, SYMLINK: 14, READLINK: 15, UTIMENS: 16, FUTIMENS: 17,
};
const O = { ACCMODE: 3, CREAT: 0o100, EXCL: 0o200, TRUNC: 0o1000, DIRECTORY: 0o200000 };
const AT_REMOVEDIR = 0x200;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const DT_DIR = 4;
const DT_REG = 8;
// Request layout (docs/MOUNTS.md)
const R = { op: 4, flags: 12, result: 16, handle: 24, offset: 32, ptr: 40, len: 44, path: 48, pathLen: 52,
  path2: 56, path2Len: 60 };

class Errno extends Error {
  constructor(code, why) { super(why ?? `errno ${code}`); this.code = code; }
}

/** DOMException (or TypeError) -> Linux errno, with a hint for the ambiguous ones. */
export function errnoOf(err, { typeMismatch = E.ENOTDIR, busy = E.EBUSY } = {}) {
  if (err instanceof Errno) return err.code;
  switch (err?.name) {
    case 'NotFoundError': return E.ENOENT;
    case 'TypeMismatchError': return typeMismatch;
    case 'NoModificationAllowedError': return busy;
    case 'InvalidModificationError': return E.ENOTEMPTY;
    case 'QuotaExceededError': return E.ENOSPC;
    case 'NotAllowedError': case 'SecurityError': return E.EACCES;
    case 'InvalidStateError': return E.EBADF;
    case 'TypeError': return E.EINVAL; // a name OPFS does not accept
    default: return E.EIO;
  }
}

// Inode numbers: a 53-bit FNV-1a of the path inside the mount, mixed with that path's generation.
// OPFS has no file identity; the generation (a counter per hash bucket, in a SharedArrayBuffer
// every worker of the mount sees) moves whenever worker 0 removes or renames something at the
// path, so a file that replaces another at the same name gets a new number (the C layer shares
// one cache object per inode number, docs/MOUNTS.md).
export const GENERATION_SLOTS = 1 << 16;
function fnv(path) {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < path.length; i++) {
    h ^= BigInt(path.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function splitPath(rel) {
  if (rel === '') return [];
  const parts = rel.split('/');
  for (const p of parts) {
    if (p === '' || p === '.' || p === '..') throw new Errno(E.EACCES, `refused path component '${p}'`);
    if (encoder.encode(p).length > 255) throw new Errno(E.ENAMETOOLONG);
  }
  return parts;
}

/** An open file or directory of this worker. */
class Open {
  constructor(id, path, kind) {
    this.id = id; this.path = path; this.kind = kind;
    this.sah = null;        // FileSystemSyncAccessHandle while attached
    this.fh = null;         // its FileSystemFileHandle
    this.detached = null;   // Uint8Array: the bytes of an unlinked file, now only here
    this.detachedSize = 0;
    this.pending = null;    // a rename in progress: requests wait for it
    this.entries = null;    // a directory's listing, taken at cookie 0
    this.ino = 0n;          // fixed at open, as a file keeps its inode across renames
  }
}

export class OpfsBackend {
  /**
   * root: Promise<FileSystemDirectoryHandle> (the mount's directory); w: this worker's index;
   * memory: the program's WebAssembly.Memory; peers: { detach(msg) -> Promise } for the other
   * workers (worker 0 only).
   */
  constructor({ root, w, memory, peers = null, generations = new SharedArrayBuffer((GENERATION_SLOTS + 1) * 4) }) {
    this.root = root; this.w = w; this.memory = memory; this.peers = peers;
    this.generations = new Int32Array(generations);
    // Directory handles by path. The last slot of `generations` is a namespace epoch that worker
    // 0 moves whenever it removes or renames a directory; a worker that sees it move drops them.
    this.dirs = new Map();
    this.dirsEpoch = 0;
    this.opens = new Map();
    this.nextId = 1;
  }

  ino(path) {
    const h = fnv(path);
    const g = BigInt(Atomics.load(this.generations, Number(h % BigInt(GENERATION_SLOTS))));
    return ((h ^ (g * 0x9e3779b97f4a7c15n)) & 0x1fffffffffffffn) | 1n;
  }

  /** A new generation for `path`: whatever is there next is a different file. */
  bump(path) {
    Atomics.add(this.generations, Number(fnv(path) % BigInt(GENERATION_SLOTS)), 1);
  }

  bytes(ptr, len) { return new Uint8Array(this.memory.buffer, ptr, len); }

  str(ptr, len) { return decoder.decode(this.bytes(ptr, len).slice()); }

  /** Serves one request (see docs/MOUNTS.md); writes result and outputs, not state. */
  async handle(view, req) {
    let result;
    try {
      result = await this.#dispatch(view, req);
    } catch (err) {
      result = -BigInt(errnoOf(err));
      if (!(err instanceof Errno) && globalThis.SPINDLE_OPFS_DEBUG) console.error('opfs', err);
    }
    view.setBigInt64(req + R.result, BigInt(result), true);
  }

  async #dispatch(view, req) {
    const op = view.getInt32(req + R.op, true);
    const flags = view.getInt32(req + R.flags, true);
    const ptr = view.getUint32(req + R.ptr, true);
    const len = view.getUint32(req + R.len, true);
    const offset = view.getBigInt64(req + R.offset, true);
    const path = () => this.str(view.getUint32(req + R.path, true), view.getUint32(req + R.pathLen, true));
    const path2 = () => this.str(view.getUint32(req + R.path2, true), view.getUint32(req + R.path2Len, true));
    const open = () => {
      const h = view.getBigUint64(req + R.handle, true);
      const o = this.opens.get(Number(h >> 8n));
      if (!o || Number(h & 0xffn) !== this.w) throw new Errno(E.EBADF);
      return o;
    };
    switch (op) {
      case OP.OPEN: {
        const o = await this.open(path(), flags);
        view.setBigUint64(req + R.handle, (BigInt(o.id) << 8n) | BigInt(this.w), true);
        // a file just truncated by O_TRUNC was modified now: no getFile() round trip for its time
        await this.writeStat(view, ptr, await this.statOpen(o, o.truncatedAt));
        return 0;
      }
      case OP.CLOSE: return this.close(open());
      case OP.PREAD: return this.pread(open(), ptr, len, Number(offset));
      case OP.PWRITE: return this.pwrite(open(), ptr, len, Number(offset));
      case OP.FSTAT: await this.writeStat(view, ptr, await this.statOpen(open())); return 0;
      case OP.FTRUNCATE: return this.ftruncate(open(), Number(offset));
      case OP.FSYNC: {
        const o = open();
        await ready(o);
        if (o.sah) o.sah.flush();
        return 0;
      }
      case OP.READDIR: return this.readdir(view, open(), Number(offset), ptr, len);
      case OP.STAT: await this.writeStat(view, ptr, await this.statPath(path())); return 0;
      case OP.MKDIR: return this.mkdir(path());
      case OP.UNLINK: return this.unlink(path(), (flags & AT_REMOVEDIR) !== 0);
      case OP.RENAME: return this.rename(path(), path2());
      // OPFS has no hard links and no symlinks: as Linux answers on a filesystem without them (vfat)
      case OP.LINK: await this.statPath(path()); return -E.EPERM;
      case OP.SYMLINK: return -E.EPERM;
      case OP.READLINK: await this.statPath(path()); return -E.EINVAL;
      // no settable timestamps (only lastModified, which OPFS keeps itself): accepted, ignored
      case OP.UTIMENS: await this.statPath(path()); return 0;
      case OP.FUTIMENS: open(); return 0;
      default: return -E.ENOTSUP;
    }
  }

  // ---- path walking ----

  /** The directory handle of `parts` (all of them). */
  async dirOf(parts) {
    const epoch = Atomics.load(this.generations, GENERATION_SLOTS);
    if (epoch !== this.dirsEpoch) {
      this.dirs.clear();
      this.dirsEpoch = epoch;
    }
    let dir = await this.root;
    let i = parts.length;
    for (; i > 0; i--) {
      const cached = this.dirs.get(parts.slice(0, i).join('/'));
      if (cached) { dir = cached; break; }
    }
    for (; i < parts.length; i++) {
      try {
        dir = await dir.getDirectoryHandle(parts[i]);
      } catch (err) {
        throw new Errno(errnoOf(err, { typeMismatch: E.ENOTDIR }));
      }
      if (this.dirs.size > 4096) this.dirs.clear();
      this.dirs.set(parts.slice(0, i + 1).join('/'), dir);
    }
    return dir;
  }

  /** Directories were removed or moved: every worker forgets its directory handles. */
  dirsChanged() {
    Atomics.add(this.generations, GENERATION_SLOTS, 1);
  }

  /** { dir, name, parts } for the last component of rel (rel must not be the root). */
  async parentOf(rel) {
    const parts = splitPath(rel);
    if (parts.length === 0) throw new Errno(E.EBUSY); // the mount's root
    return { dir: await this.dirOf(parts.slice(0, -1)), name: parts.at(-1), parts };
  }

  /** The entry's handle and kind, or null when missing. */
  async lookup(dir, name) {
    try {
      return await dir.getFileHandle(name);
    } catch (err) {
      if (err.name === 'TypeMismatchError') return dir.getDirectoryHandle(name);
      if (err.name === 'NotFoundError') return null;
      throw err;
    }
  }

  // ---- files ----

  async attach(o, fh) {
    o.fh = fh;
    o.sah = await fh.createSyncAccessHandle({ mode: 'readwrite-unsafe' });
  }

  async open(rel, flags) {
    const parts = splitPath(rel);
    const writes = (flags & O.ACCMODE) !== 0;
    if (parts.length === 0) {
      if (writes) throw new Errno(E.EISDIR);
      if (flags & O.CREAT && flags & O.EXCL) throw new Errno(E.EEXIST);
      return this.#add(new Open(0, '', 'dir'));
    }
    const dir = await this.dirOf(parts.slice(0, -1));
    const name = parts.at(-1);
    let entry;
    if (flags & O.CREAT && !(flags & O.EXCL) && !(flags & O.DIRECTORY)) {
      // the common create-or-open: one call (a directory answers TypeMismatchError)
      try {
        entry = await dir.getFileHandle(name, { create: true });
      } catch (err) {
        if (err.name !== 'TypeMismatchError') throw new Errno(errnoOf(err, { typeMismatch: E.EISDIR }));
        entry = await dir.getDirectoryHandle(name);
      }
    } else {
      entry = await this.lookup(dir, name);
    }
    if (entry && flags & O.CREAT && flags & O.EXCL) throw new Errno(E.EEXIST);
    if (entry?.kind === 'directory') {
      if (writes || flags & O.CREAT) throw new Errno(E.EISDIR);
      return this.#add(new Open(0, rel, 'dir'));
    }
    if (!entry) {
      if (!(flags & O.CREAT)) throw new Errno(E.ENOENT);
      if (flags & O.DIRECTORY) throw new Errno(E.EINVAL); // Linux: O_CREAT|O_DIRECTORY on a new name
      try {
        entry = await dir.getFileHandle(name, { create: true });
      } catch (err) {
        throw new Errno(errnoOf(err, { typeMismatch: E.EISDIR }));
      }
    }
    if (flags & O.DIRECTORY) throw new Errno(E.ENOTDIR);
    const o = new Open(0, rel, 'file');
    try {
      await this.attach(o, entry);
    } catch (err) {
      throw new Errno(errnoOf(err, { busy: E.EBUSY }));
    }
    if (writes && flags & O.TRUNC) {
      o.sah.truncate(0);
      o.truncatedAt = Date.now();
    }
    return this.#add(o);
  }

  #add(o) {
    o.id = this.nextId++;
    o.ino = this.ino(o.path);
    this.opens.set(o.id, o);
    return o;
  }

  async close(o) {
    await ready(o); // a handle being reopened after a rename is closed once it is
    this.opens.delete(o.id);
    if (o.sah) {
      try { o.sah.flush(); } finally { o.sah.close(); o.sah = null; }
    }
    return 0;
  }

  async pread(o, ptr, len, at) {
    if (o.kind === 'dir') throw new Errno(E.EISDIR);
    await ready(o);
    if (o.detached) {
      const n = Math.max(0, Math.min(len, o.detachedSize - at));
      if (n > 0) this.bytes(ptr, n).set(o.detached.subarray(at, at + n));
      return n;
    }
    return o.sah.read(this.bytes(ptr, len), { at });
  }

  async pwrite(o, ptr, len, at) {
    if (o.kind === 'dir') throw new Errno(E.EISDIR);
    await ready(o);
    if (o.detached) {
      this.#growDetached(o, at + len);
      o.detached.set(this.bytes(ptr, len), at);
      return len;
    }
    try {
      return o.sah.write(this.bytes(ptr, len), { at });
    } catch (err) {
      throw new Errno(errnoOf(err));
    }
  }

  #growDetached(o, size) {
    if (size > o.detached.length) {
      const bigger = new Uint8Array(Math.max(size, o.detached.length * 2));
      bigger.set(o.detached.subarray(0, o.detachedSize));
      o.detached = bigger;
    }
    if (size > o.detachedSize) o.detachedSize = size;
  }

  async ftruncate(o, size) {
    if (o.kind === 'dir') throw new Errno(E.EISDIR);
    if (size < 0) throw new Errno(E.EINVAL);
    await ready(o);
    if (o.detached) {
      if (size < o.detachedSize) o.detached.fill(0, size, o.detachedSize);
      this.#growDetached(o, size);
      o.detachedSize = size;
      return 0;
    }
    try {
      o.sah.truncate(size);
    } catch (err) {
      throw new Errno(errnoOf(err));
    }
    return 0;
  }

  // ---- metadata ----

  async statOpen(o, knownMtimeMs = 0) {
    await ready(o);
    if (o.kind === 'dir') return { ino: o.ino, dir: true, size: 0, mtimeMs: 0 };
    if (o.detached) return { ino: o.ino, size: o.detachedSize, mtimeMs: Date.now(), nlink: 0 };
    let mtimeMs = knownMtimeMs;
    if (!mtimeMs) {
      try { mtimeMs = (await o.fh.getFile()).lastModified; } catch { /* busy: leave 0 */ }
    }
    return { ino: o.ino, size: o.sah.getSize(), mtimeMs };
  }

  async statPath(rel) {
    const parts = splitPath(rel);
    if (parts.length === 0) return { ino: this.ino(''), dir: true, size: 0, mtimeMs: 0 };
    const dir = await this.dirOf(parts.slice(0, -1));
    const entry = await this.lookup(dir, parts.at(-1));
    if (!entry) throw new Errno(E.ENOENT);
    if (entry.kind === 'directory') return { ino: this.ino(rel), dir: true, size: 0, mtimeMs: 0 };
    // an open file of this worker: its handle knows the size without a round trip
    for (const o of this.opens.values()) {
      if (o.path === rel && o.sah) return { ...(await this.statOpen(o)), ino: this.ino(rel) };
    }
    try {
      const file = await entry.getFile();
      return { ino: this.ino(rel), size: file.size, mtimeMs: file.lastModified };
    } catch {
      // open with a sync access handle elsewhere: open one here for the size
      const o = new Open(0, rel, 'file');
      await this.attach(o, entry);
      try { return { ino: this.ino(rel), size: o.sah.getSize(), mtimeMs: 0 }; } finally { o.sah.close(); }
    }
  }

  writeStat(view, ptr, st) {
    const b = ptr;
    const ns = BigInt(Math.round(st.mtimeMs)) * 1000000n;
    view.setBigUint64(b, st.ino, true);
    view.setUint32(b + 8, st.dir ? S_IFDIR | 0o755 : S_IFREG | 0o644, true);
    view.setUint32(b + 12, 0, true);
    view.setBigUint64(b + 16, BigInt(st.nlink ?? (st.dir ? 2 : 1)), true);
    view.setBigInt64(b + 24, BigInt(st.size), true);
    view.setBigInt64(b + 32, BigInt(Math.ceil(st.size / 4096) * 8), true);
    view.setBigInt64(b + 40, ns, true);
    view.setBigInt64(b + 48, ns, true);
    view.setBigInt64(b + 56, ns, true);
  }

  async readdir(view, o, cookie, ptr, len) {
    if (o.kind !== 'dir') throw new Errno(E.ENOTDIR);
    if (cookie < 3 || !o.entries) {
      const dir = await this.dirOf(splitPath(o.path));
      o.entries = [];
      for await (const [name, h] of dir.entries()) o.entries.push({ name, dir: h.kind === 'directory' });
    }
    const base = o.path === '' ? '' : `${o.path}/`;
    let i = cookie < 3 ? 0 : cookie - 2;
    let at = 0;
    for (; i < o.entries.length; i++) {
      const e = o.entries[i];
      const name = encoder.encode(e.name);
      const size = 24 + ((name.length + 7) & ~7);
      if (at + size > len) break;
      view.setBigUint64(ptr + at, BigInt(i + 3), true);
      view.setBigUint64(ptr + at + 8, this.ino(base + e.name), true);
      view.setUint8(ptr + at + 16, e.dir ? DT_DIR : DT_REG);
      view.setUint8(ptr + at + 17, 0);
      view.setUint16(ptr + at + 18, name.length, true);
      view.setUint32(ptr + at + 20, 0, true);
      this.bytes(ptr + at + 24, name.length).set(name);
      at += size;
    }
    if (at === 0 && i < o.entries.length) throw new Errno(E.EINVAL); // buffer too small for one
    return at;
  }

  // ---- namespace (worker 0) ----

  async mkdir(rel) {
    const { dir, name } = await this.parentOf(rel).catch((err) => {
      throw err instanceof Errno && err.code === E.EBUSY ? new Errno(E.EEXIST) : err;
    });
    if (await this.lookup(dir, name)) throw new Errno(E.EEXIST);
    await dir.getDirectoryHandle(name, { create: true });
    return 0;
  }

  async unlink(rel, rmdir) {
    const { dir, name } = await this.parentOf(rel);
    const entry = await this.lookup(dir, name);
    if (!entry) throw new Errno(E.ENOENT);
    if (rmdir && entry.kind !== 'directory') throw new Errno(E.ENOTDIR);
    if (rmdir) {
      for await (const _ of entry.keys()) throw new Errno(E.ENOTEMPTY); // eslint-disable-line no-unused-vars
    }
    if (!rmdir && entry.kind === 'directory') throw new Errno(E.EISDIR);
    try {
      await dir.removeEntry(name);
    } catch (err) {
      if (err.name !== 'NoModificationAllowedError' || rmdir) throw new Errno(errnoOf(err));
      // open somewhere: its open descriptions keep the bytes, then remove it
      await this.detachEverywhere({ kind: 'unlink', path: rel });
      await dir.removeEntry(name);
      await this.settleEverywhere({ path: rel, ok: true });
    }
    this.bump(rel);
    if (rmdir) this.dirsChanged();
    return 0;
  }

  async rename(from, to) {
    const src = await this.parentOf(from);
    const dst = await this.parentOf(to);
    const entry = await this.lookup(src.dir, src.name);
    if (!entry) throw new Errno(E.ENOENT);
    const target = await this.lookup(dst.dir, dst.name);
    if (from === to) return 0;
    if (entry.kind === 'directory') {
      if (to.startsWith(`${from}/`)) throw new Errno(E.EINVAL);
      if (target?.kind === 'file') throw new Errno(E.ENOTDIR);
      if (target) {
        for await (const _ of target.keys()) throw new Errno(E.ENOTEMPTY); // eslint-disable-line no-unused-vars
      }
    } else if (target?.kind === 'directory') {
      throw new Errno(E.EISDIR);
    }
    if (target && from.startsWith(`${to}/`)) throw new Errno(E.ENOTEMPTY); // onto its own ancestor
    if (entry.kind === 'file') {
      // Most renames move a file nobody has open: one move(), no round of messages.
      try {
        await entry.move(dst.dir, dst.name);
        this.bump(from);
        this.bump(to);
        return 0;
      } catch (err) {
        if (err.name !== 'NoModificationAllowedError') throw new Errno(errnoOf(err, { typeMismatch: E.ENOTDIR }));
      }
    }
    // Detach what is open under `from` (and a replaced target), then move, then reattach.
    await this.detachEverywhere({ kind: 'rename', path: from, to });
    if (target?.kind === 'file') await this.detachEverywhere({ kind: 'unlink', path: to });
    let ok = false;
    try {
      if (entry.kind === 'file') {
        await entry.move(dst.dir, dst.name);
      } else {
        // Chromium has no move() for directories: copy the tree, then remove the original.
        if (target) await dst.dir.removeEntry(dst.name);
        await copyTree(entry, await dst.dir.getDirectoryHandle(dst.name, { create: true }), from, (p) => this.bump(p));
        await src.dir.removeEntry(src.name, { recursive: true });
      }
      ok = true;
      this.bump(from);
      this.bump(to);
      if (entry.kind === 'directory') this.dirsChanged();
    } catch (err) {
      throw new Errno(errnoOf(err, { typeMismatch: E.ENOTDIR }));
    } finally {
      await this.settleEverywhere({ path: from, ok });
      if (target?.kind === 'file') await this.settleEverywhere({ path: to, ok: true });
    }
    return 0;
  }

  // ---- detaching open files (all workers) ----

  async detachEverywhere(msg) {
    await this.detach(msg);
    if (this.peers) await this.peers.broadcast({ type: 'detach', ...msg });
  }

  async settleEverywhere(msg) {
    await this.settle(msg);
    if (this.peers) await this.peers.broadcast({ type: 'settle', ...msg });
  }

  /** Lets go of the sync access handles on `path` (a file, or everything under a directory). */
  async detach({ kind, path, to }) {
    for (const o of [...this.opens.values()]) {
      const under = o.path === path || o.path.startsWith(`${path}/`);
      if (!under || o.kind !== 'file') continue;
      await ready(o);
      if (!o.sah) continue;
      if (kind === 'unlink') {
        const size = o.sah.getSize();
        o.detached = new Uint8Array(Math.max(size, 64));
        o.sah.read(o.detached.subarray(0, size), { at: 0 });
        o.detachedSize = size;
        o.sah.close(); o.sah = null; o.fh = null;
        o.path = `${o.path}\0unlinked`;
      } else {
        o.sah.flush(); o.sah.close(); o.sah = null;
        o.pending = new Promise((resolve) => { o.settled = resolve; });
        o.moving = { from: path, to };
      }
    }
  }

  /** After the move: reopen the detached handles at their new (or, if it failed, old) place. */
  async settle({ path, ok }) {
    const reopening = [];
    for (const o of this.opens.values()) {
      if (!o.moving || o.moving.from !== path) continue;
      const { from, to } = o.moving;
      o.moving = null;
      if (ok) o.path = to + o.path.slice(from.length);
      const wake = o.settled;
      o.pending = this.#reattach(o).finally(() => { o.pending = null; });
      wake();
      reopening.push(o.pending);
    }
    await Promise.all(reopening);
  }

  async #reattach(o) {
    const parts = splitPath(o.path);
    try {
      const dir = await this.dirOf(parts.slice(0, -1));
      const fh = await dir.getFileHandle(parts.at(-1));
      // Chromium lets go of a closed handle's lock a moment later (seen after a move onto a file
      // whose handle was just closed): retry for up to a second
      for (let attempt = 0; ; attempt++) {
        try {
          await this.attach(o, fh);
          break;
        } catch (err) {
          if (err.name !== 'NoModificationAllowedError' || attempt >= 200) throw err;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    } catch (err) {
      if (globalThis.SPINDLE_OPFS_DEBUG) console.error('opfs reattach', o.path, err);
      o.sah = null;
      o.detached = new Uint8Array(64); // lost track of it: an empty unlinked file
      o.detachedSize = 0;
    }
  }
}

/** Waits for a rename that moves the file to settle (and its handle to be reopened). */
async function ready(o) {
  while (o.pending) await o.pending;
}

/** Copies a directory tree (files through sync access handles). */
async function copyTree(from, to, fromPath, moved) {
  for await (const [name, h] of from.entries()) {
    moved(`${fromPath}/${name}`);
    if (h.kind === 'directory') {
      await copyTree(h, await to.getDirectoryHandle(name, { create: true }), `${fromPath}/${name}`, moved);
    } else {
      const src = await h.createSyncAccessHandle({ mode: 'readwrite-unsafe' });
      const dst = await (await to.getFileHandle(name, { create: true })).createSyncAccessHandle();
      try {
        const buf = new Uint8Array(1 << 20);
        const size = src.getSize();
        for (let at = 0; at < size; at += buf.length) {
          const n = src.read(buf, { at });
          dst.write(buf.subarray(0, n), { at });
        }
        dst.flush();
      } finally {
        src.close(); dst.close();
      }
    }
  }
}

/** The mount's directory: `subdir` (slash-separated, created if missing) of the origin's OPFS. */
export async function mountRoot(subdir) {
  let dir = await navigator.storage.getDirectory();
  for (const p of String(subdir ?? '').split('/').filter(Boolean)) dir = await dir.getDirectoryHandle(p, { create: true });
  return dir;
}
