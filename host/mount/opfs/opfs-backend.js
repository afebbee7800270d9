// The OPFS backend's operations (docs/MOUNTS.md section 3, docs/OPFS.md): runs inside an OPFS I/O
// worker (host/mount/opfs/opfs-worker.js), never on a page's main thread. One FileSystemSyncAccessHandle
// per file, shared by all its opens: they are all served by the worker that opened the file first
// (opfs-owners.js; Firefox allows no second handle on a file). Reads and writes go straight
// between the handle and the program's linear memory (the handle takes views on a
// SharedArrayBuffer: no staging copy).
//
// Namespace operations that change something run on worker 0, which asks every worker to let go
// of a file OPFS will not remove or move while it is open (opfs-detach.js); a stat may run on any
// worker (opfs.js). Inode numbers: opfs-identity.js; path walking and the directory-handle cache:
// opfs-paths.js; the file-handle cache: opfs-handles.js.

import { AT, DT, ERRNO as E, O, S } from '../../abi/linux.js';
import { inMemory, ioHandle, ioHandleParts, memoryBytes, OP, REQ, setResult } from '../../abi/mount-request.js';
import { cookieAfter, direntBytes, indexFrom, STAT, writeDirent, writeStat } from '../../abi/mount-wire.js';
import { createGenerations } from '../../abi/opfs-generations.js';
import { FORWARDED } from '../mailbox.js';
import { detach, reattach, ready, settle } from './opfs-detach.js';
import { Errno, errnoOf } from './opfs-errors.js';
import { FileHandles } from './opfs-handles.js';
import { Identity } from './opfs-identity.js';
import { MemoryFile } from './opfs-memory-file.js';
import { createOwners, Owners } from './opfs-owners.js';
import { lookup, PathWalker, splitPath } from './opfs-paths.js';

// OPFS names are strings: bytes that are not UTF-8 are refused (EILSEQ), never decoded leniently
// (`bad\xff` and `bad\xef\xbf\xbd` would be one file)
const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();
// A handle is ioHandle(tag << ID_BITS | id, w): id numbers this worker's opens and is never reused
// (a closed handle stays EBADF); tag, 1 + the mount's id, makes it EBADF on another mount.
const ID_BITS = 40n;
const ID_MASK = (1n << ID_BITS) - 1n;
// Requests on a path that the worker holding the file serves (they open or stat it)
const HOLDER_OPS = new Set([OP.OPEN, OP.STAT, OP.LINK, OP.READLINK, OP.UTIMENS, OP.CHMOD]);

// OPFS keeps no modes: every file reads 0644, every directory 0755
const permissionsOf = (st) => (st.dir ? 0o755 : 0o644);
// chmod to the mode a file already has changes nothing (0); any other is refused (EPERM)
const fixedMode = (st, mode) => ((mode & 0o7777) === permissionsOf(st) ? 0 : -E.EPERM);

/** A file this worker holds open: its one sync access handle, shared by all its opens. */
class HeldFile {
  constructor(path) {
    this.path = path;       // inside the mount; a detached unlinked file's ends in "\0unlinked"
    this.kind = 'file';
    this.sah = null;        // FileSystemSyncAccessHandle while attached
    this.fh = null;         // its FileSystemFileHandle
    this.opens = 0;         // how many opens share it
    this.claimed = '';      // the path this worker holds it under in the owners table ('' none)
    this.detached = null;   // MemoryFile: the bytes of an unlinked file, now only here
    this.unwritten = null;  // MemoryFile, empty: a new file with no handle yet (#openNew)
    this.pending = null;    // an unlink or rename in progress: requests wait for it (opfs-detach.js)
    this.settled = null;    // resolves `pending`'s wait once it is done
    this.moving = null;     // { from, to } of the rename it was detached for (to: null for an unlink)
    this.dirty = false;     // written or truncated through `sah` since its last flush()
  }

  /** A write or truncate went through the handle: the next close or fsync flushes it. */
  changed() { this.dirty = true; }

  /** flush() if anything changed since the last (a file only read costs no flush at close). */
  flush() {
    if (!this.sah || !this.dirty) return;
    this.sah.flush();
    this.dirty = false;
  }
}

/** An open file or directory of this worker (what a handle names). */
class Open {
  constructor(path, kind, file = null) {
    this.id = 0;            // its number in this worker's table (the handle's id)
    this.dirPath = path;    // a directory's path inside the mount
    this.kind = kind;       // 'file' or 'dir'
    this.file = file;       // a file's HeldFile
    this.entries = null;    // a directory's listing, taken at cookie 0
    this.ino = 0n;          // fixed at open, as a file keeps its inode across renames
    this.truncatedAt = 0;   // Date.now() of an O_TRUNC at open (its mtime, without a round trip)
  }

  get path() { return this.file ? this.file.path : this.dirPath; }
}

export class OpfsBackend {
  /**
   * root: Promise<FileSystemDirectoryHandle> (the mount's directory); w: this worker's index;
   * memory: the program's WebAssembly.Memory; peers: { broadcast(msg) -> Promise } to the other
   * workers (worker 0 only, opfs-detach.js); generations: the mount's generations buffer
   * (host/abi/opfs-generations.js); debug: log unexpected OPFS errors on the console; mountId:
   * the mount's position (its handles carry it); owners: the mount's owners table
   * (opfs-owners.js); forward(request, w): puts a request in worker w's ring (mailbox.js enqueue);
   * share(path, fh, ino): hands the other workers the handle of a file this worker found.
   */
  constructor({ root, w, memory, peers = null, generations = createGenerations(), debug = false, mountId = 0,
    owners = createOwners(), forward = null, share = () => {} }) {
    this.root = root; this.w = w; this.memory = memory; this.peers = peers; this.debug = debug;
    this.tag = BigInt(mountId + 1);
    this.identity = new Identity(generations);
    this.walker = new PathWalker(root, this.identity);
    this.handles = new FileHandles(this.identity);
    this.share = share;
    this.owners = new Owners(owners, w);
    this.forward = forward;
    this.opens = new Map();
    this.files = new Map(); // HeldFile by path
    this.nextId = 1;
  }

  ino(path) { return this.identity.ino(path); }

  bump(path) { this.identity.bump(path); }

  /** The module's memory at ptr; EFAULT if it is not all inside (a hostile module's address). */
  bytes(ptr, len) {
    const bytes = memoryBytes(new DataView(this.memory.buffer), ptr, len);
    if (!bytes) throw new Errno(E.EFAULT);
    return bytes;
  }

  str(ptr, len) {
    const bytes = this.bytes(ptr, len).slice(); // (EFAULT outside memory)
    try {
      return decoder.decode(bytes);
    } catch {
      throw new Errno(E.EILSEQ);
    }
  }

  /**
   * Serves one request (see docs/MOUNTS.md); writes result and outputs, not state. Returns
   * FORWARDED when the request went to the worker holding its file, which answers it.
   */
  async handle(view, req) {
    let result;
    try {
      result = await this.#dispatch(view, req);
    } catch (err) {
      result = -errnoOf(err);
      if (!(err instanceof Errno) && this.debug) console.error('opfs', err);
    }
    if (result === FORWARDED) return result;
    setResult(view, req, result);
    return undefined;
  }

  /** Another worker holds `rel`: hands it the request (FORWARDED), or null when none does. */
  async #toHolder(rel, req) {
    const holder = this.owners.holderOf(rel);
    if (holder < 0 || holder === this.w || !this.forward) return null;
    await this.forward(req, holder);
    return FORWARDED;
  }

  async #dispatch(view, req) {
    const op = view.getInt32(req + REQ.OP, true);
    const flags = view.getInt32(req + REQ.FLAGS, true);
    const ptr = view.getUint32(req + REQ.PTR, true);
    const len = view.getUint32(req + REQ.LEN, true);
    const offset = view.getBigInt64(req + REQ.OFFSET, true);
    const path = () => this.str(view.getUint32(req + REQ.PATH, true), view.getUint32(req + REQ.PATH_LEN, true));
    const path2 = () => this.str(view.getUint32(req + REQ.PATH2, true), view.getUint32(req + REQ.PATH2_LEN, true));
    const open = () => {
      const { id, w } = ioHandleParts(view.getBigUint64(req + REQ.HANDLE, true));
      const o = id >> ID_BITS === this.tag && w === this.w ? this.opens.get(Number(id & ID_MASK)) : undefined;
      if (!o) throw new Errno(E.EBADF);
      return o;
    };
    // an offset must be >= 0; a stat's place is checked before the operation
    const at = () => (offset < 0n ? -E.EINVAL : Number(offset));
    const statOut = () => {
      if (!inMemory(view, ptr, STAT.BYTES)) throw new Errno(E.EFAULT);
      return ptr;
    };
    // a file another worker holds is opened and looked at there, on its handle (the only one)
    if (HOLDER_OPS.has(op)) {
      const rel = path();
      const forwarded = this.files.has(rel) ? null : await this.#toHolder(rel, req);
      if (forwarded) return forwarded;
    }
    switch (op) {
      case OP.OPEN: {
        const statAt = statOut();
        const rel = path();
        const o = await this.open(rel, flags);
        // taken by another worker meanwhile; if that one let go of it already, open it here after all
        if (o === FORWARDED) return (await this.#toHolder(rel, req)) ?? this.#dispatch(view, req);
        view.setBigUint64(req + REQ.HANDLE, ioHandle((this.tag << ID_BITS) | BigInt(o.id), this.w), true);
        // a file just truncated by O_TRUNC was modified now: no getFile() round trip for its time
        this.writeStat(view, statAt, await this.statOpen(o, o.truncatedAt));
        return 0;
      }
      case OP.CLOSE: return this.close(open());
      // (the handle is checked first: a forged one is EBADF whatever else the request says)
      case OP.PREAD: { const o = open(); return at() < 0 ? at() : this.pread(o, ptr, len, at()); }
      case OP.PWRITE: { const o = open(); return at() < 0 ? at() : this.pwrite(o, ptr, len, at()); }
      case OP.FSTAT: {
        const o = open();
        const statAt = statOut();
        this.writeStat(view, statAt, await this.statOpen(o));
        return 0;
      }
      case OP.FTRUNCATE: return this.ftruncate(open(), Number(offset));
      case OP.FSYNC: {
        const { file } = open();
        if (!file) return 0;
        await ready(file);
        await this.#writeOut(file);
        file.flush();
        return 0;
      }
      case OP.READDIR: return this.readdir(view, open(), Number(offset), ptr, len, view.getUint32(req + REQ.MODE, true));
      case OP.STAT: this.writeStat(view, statOut(), await this.statPath(path())); return 0;
      case OP.MKDIR: return this.mkdir(path());
      case OP.UNLINK: return this.unlink(path(), (flags & AT.REMOVEDIR) !== 0);
      case OP.RENAME: return this.rename(path(), path2());
      // OPFS has no hard links and no symlinks: as Linux answers on a filesystem without them (vfat)
      case OP.LINK: await this.statPath(path()); return -E.EPERM;
      case OP.SYMLINK: return -E.EPERM;
      case OP.READLINK: await this.statPath(path()); return -E.EINVAL;
      // no settable timestamps (only lastModified, which OPFS keeps itself): accepted, ignored
      case OP.UTIMENS: await this.statPath(path()); return 0;
      case OP.FUTIMENS: open(); return 0;
      // no modes: the fixed one is accepted (pigz's chmod to 0644), another is EPERM
      case OP.CHMOD: return fixedMode(await this.statPath(path()), view.getUint32(req + REQ.MODE, true));
      case OP.FCHMOD: {
        const o = open();
        return fixedMode(await this.statOpen(o), view.getUint32(req + REQ.MODE, true));
      }
      default: return -E.ENOTSUP;
    }
  }

  // ---- files ----

  async attach(file, fh) {
    file.fh = fh;
    file.sah = await fh.createSyncAccessHandle();
  }

  async open(rel, flags) {
    const parts = splitPath(rel);
    const writes = (flags & O.ACCMODE) !== 0;
    if (parts.length === 0) {
      if (writes) throw new Errno(E.EISDIR);
      if (flags & O.CREAT && flags & O.EXCL) throw new Errno(E.EEXIST);
      return this.#add(new Open('', 'dir'));
    }
    const held = this.files.get(rel);
    if (held) return this.#share(held, rel, flags);
    // the bucket of rel is this worker's from here on, or the request goes to its holder
    if (this.owners.claim(rel) >= 0) return FORWARDED;
    let o;
    try {
      o = await this.#openNew(rel, parts, flags);
    } finally {
      if (!o?.file) this.owners.release(rel);
    }
    if (o.file) {
      o.file.claimed = rel;
      this.files.set(rel, o.file);
    }
    return o;
  }

  /** Another open of a file this worker holds: the same handle. */
  async #share(file, rel, flags) {
    await ready(file);
    // renamed, unlinked or closed meanwhile
    if (file.path !== rel || this.files.get(rel) !== file) return this.open(rel, flags);
    if (flags & O.CREAT && flags & O.EXCL) throw new Errno(E.EEXIST);
    if (flags & O.DIRECTORY) throw new Errno(E.ENOTDIR);
    const o = new Open(rel, 'file', file);
    if ((flags & O.ACCMODE) !== 0 && flags & O.TRUNC) {
      (file.unwritten ?? file.sah).truncate(0);
      file.changed();
      o.truncatedAt = Date.now();
    }
    file.opens++;
    return this.#add(o);
  }

  /** Opens rel, which this worker does not hold: its directory, or a file with a new handle. */
  async #openNew(rel, parts, flags) {
    const writes = (flags & O.ACCMODE) !== 0;
    const ino = this.ino(rel); // (before any OPFS call: a rename or unlink meanwhile moves it)
    const dir = await this.walker.dirOf(parts.slice(0, -1));
    const name = parts.at(-1);
    let entry;
    if (flags & O.CREAT && !(flags & O.EXCL) && !(flags & O.DIRECTORY)) {
      // the common create-or-open: one call (a directory answers TypeMismatchError), or none for
      // a file whose handle this worker keeps
      try {
        entry = this.handles.get(rel) ?? await dir.getFileHandle(name, { create: true });
      } catch (err) {
        if (err.name !== 'TypeMismatchError') throw new Errno(errnoOf(err, { typeMismatch: E.EISDIR }));
        entry = await dir.getDirectoryHandle(name);
      }
    } else {
      entry = this.handles.get(rel) ?? await lookup(dir, name); // (a cached handle is a file's)
    }
    if (entry && flags & O.CREAT && flags & O.EXCL) throw new Errno(E.EEXIST);
    if (entry?.kind === 'directory') {
      if (writes || flags & O.CREAT) throw new Errno(E.EISDIR);
      return this.#add(new Open(rel, 'dir'));
    }
    const created = !entry;
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
    this.#remember(rel, entry, ino);
    const file = new HeldFile(rel);
    // A file its open created gets its sync access handle only at its first write or growth: one
    // created and closed empty never does (in Firefox a handle on a new file costs ~40 ms to open
    // and close: docs/OPFS.md 5b). No byte waits here for a handle: what write() returned for
    // is in OPFS, whatever ends the page or the program next (tests/opfs-crash.test.js).
    if (writes && created) {
      file.fh = entry;
      file.unwritten = new MemoryFile();
    } else {
      try {
        await this.attach(file, entry);
      } catch (err) {
        throw new Errno(errnoOf(err, { busy: E.EBUSY }));
      }
    }
    const o = new Open(rel, 'file', file);
    if (writes && flags & O.TRUNC) {
      file.sah?.truncate(0);
      file.changed();
      o.truncatedAt = Date.now();
    }
    file.opens = 1;
    return this.#add(o);
  }

  /** Keeps the handle of the file found at rel (ino: rel's inode number before it was looked up). */
  #remember(rel, fh, ino) {
    // any worker may be asked to stat it, and worker 0 to unlink it (once per file and name)
    if (this.handles.set(rel, fh, ino)) this.share(rel, fh, ino);
  }

  #add(o) {
    o.id = this.nextId++;
    o.ino = this.ino(o.path);
    this.opens.set(o.id, o);
    return o;
  }

  async close(o) {
    this.opens.delete(o.id);
    const { file } = o;
    if (!file) return 0;
    await ready(file); // a handle being reopened after a rename is closed once it is
    if (--file.opens > 0) {
      await this.#writeOut(file);
      file.flush(); // close returns = the data is in OPFS, as for the last close
      return 0;
    }
    try {
      if (file.unwritten?.size > 0) await this.#writeOut(file);
    } catch (err) {
      if (file.opens === 0) this.#letGo(file);
      throw err;
    }
    file.unwritten = null; // (an empty file: what OPFS has is right)
    if (file.opens > 0) return 0; // opened again while its bytes were written out
    // The handle is closed before the file is let go: from then on another worker may take the
    // path and open its own handle, which OPFS refuses while this one is open (flush() alone can
    // take milliseconds; an open that came in meanwhile was EBUSY: docs/OPFS.md)
    try {
      if (file.sah) {
        try { file.flush(); } finally { file.sah.close(); file.sah = null; }
      }
    } finally {
      this.#letGo(file);
    }
    return 0;
  }

  /** This worker no longer holds `file` (under its path, or the one it was held under). */
  #letGo(file) {
    for (const key of [file.path, file.claimed]) if (this.files.get(key) === file) this.files.delete(key);
    if (file.claimed) this.owners.release(file.claimed);
    file.claimed = '';
  }

  async pread({ file: o }, ptr, len, at) {
    if (!o) throw new Errno(E.EISDIR);
    await ready(o);
    return (o.detached ?? o.unwritten ?? o.sah).read(this.bytes(ptr, len), { at });
  }

  async pwrite({ file: o }, ptr, len, at) {
    if (!o) throw new Errno(E.EISDIR);
    await ready(o);
    const src = this.bytes(ptr, len);
    if (o.unwritten && len > 0) await this.#writeOut(o);
    const memory = o.detached ?? o.unwritten;
    if (memory) return memory.write(src, { at });
    try {
      o.changed();
      return o.sah.write(src, { at });
    } catch (err) {
      throw new Errno(errnoOf(err));
    }
  }

  /**
   * Gives a file whose bytes are still in memory its sync access handle, and writes them there.
   * Requests on it meanwhile wait (ready), as during a rename.
   */
  async #writeOut(file) {
    if (!file.unwritten) return ready(file); // (one may be under way)
    const bytes = file.unwritten;
    file.unwritten = null;
    file.pending = (async () => {
      try {
        await this.attach(file, file.fh);
      } catch (err) {
        file.unwritten = bytes;
        throw new Errno(errnoOf(err, { busy: E.EBUSY }));
      }
      file.sah.truncate(0); // (another page may have written it meanwhile: the bytes here win)
      file.sah.write(bytes.contents(), { at: 0 });
      file.changed();
    })().finally(() => { file.pending = null; });
    return file.pending;
  }

  async ftruncate({ file: o }, size) {
    if (!o) throw new Errno(E.EISDIR);
    if (size < 0) throw new Errno(E.EINVAL);
    await ready(o);
    if (o.unwritten && size > 0) await this.#writeOut(o);
    const memory = o.detached ?? o.unwritten;
    if (memory) {
      memory.truncate(size);
      return 0;
    }
    try {
      o.changed();
      o.sah.truncate(size);
    } catch (err) {
      throw new Errno(errnoOf(err));
    }
    return 0;
  }

  // ---- metadata ----

  async statOpen(o, knownMtimeMs = 0) {
    if (o.kind === 'dir') {
      // OPFS keeps no link count: 0 once the directory is gone from its path, as after rmdir
      const nlink = (await this.#openDir(o)) ? 2 : 0;
      return { ino: o.ino, dir: true, size: 0, mtimeMs: 0, nlink };
    }
    return { ...(await this.#statFile(o.file, knownMtimeMs)), ino: o.ino };
  }

  async #statFile(file, knownMtimeMs = 0) {
    await ready(file);
    if (file.detached) return { size: file.detached.size, mtimeMs: Date.now(), nlink: 0 };
    if (file.unwritten) return { size: file.unwritten.size, mtimeMs: knownMtimeMs || Date.now() };
    let mtimeMs = knownMtimeMs;
    if (!mtimeMs) {
      try { mtimeMs = (await file.fh.getFile()).lastModified; } catch { /* busy: leave 0 */ }
    }
    return { size: file.sah.getSize(), mtimeMs };
  }

  async statPath(rel) {
    const parts = splitPath(rel);
    const ino = this.ino(rel);
    // the root, or a directory this worker walked through (cached until a directory moves)
    if (parts.length === 0 || this.walker.known(parts)) return { ino, dir: true, size: 0, mtimeMs: 0 };
    // an open file of this worker: its handle knows the size without a round trip
    const held = this.files.get(rel);
    if (held?.sah || held?.unwritten) return { ...(await this.#statFile(held)), ino };
    // a file the program created or opened: one getFile() (gone or busy: looked up again below)
    const known = this.handles.get(rel);
    if (known) {
      try {
        const file = await known.getFile();
        return { ino, size: file.size, mtimeMs: file.lastModified };
      } catch { /* below */ }
    }
    const dir = await this.walker.dirOf(parts.slice(0, -1));
    const entry = await lookup(dir, parts.at(-1));
    if (!entry) throw new Errno(E.ENOENT);
    if (entry.kind === 'directory') return { ino, dir: true, size: 0, mtimeMs: 0 };
    this.#remember(rel, entry, ino);
    try {
      const file = await entry.getFile();
      return { ino: this.ino(rel), size: file.size, mtimeMs: file.lastModified };
    } catch {
      // open with a sync access handle elsewhere: open one here for the size
      const file = new HeldFile(rel);
      await this.attach(file, entry);
      try { return { ino: this.ino(rel), size: file.sah.getSize(), mtimeMs: 0 }; } finally { file.sah.close(); }
    }
  }

  writeStat(view, ptr, st) {
    const ns = BigInt(Math.round(st.mtimeMs)) * 1000000n;
    writeStat(view, ptr, {
      ino: st.ino, mode: (st.dir ? S.IFDIR : S.IFREG) | permissionsOf(st), nlink: st.nlink ?? (st.dir ? 2 : 1),
      size: st.size, blocks: Math.ceil(st.size / 4096) * 8, atimeNs: ns, mtimeNs: ns, ctimeNs: ns,
    });
  }

  async readdir(view, o, cookie, ptr, len, most) {
    this.bytes(ptr, len); // (EFAULT first, as the Node backend)
    if (o.kind !== 'dir') throw new Errno(E.ENOTDIR);
    if (indexFrom(cookie) === 0 || !o.entries) {
      const dir = await this.#openDir(o);
      o.entries = [];
      // a removed directory is empty (the C layer then leaves out "." and ".." too)
      for await (const [name, h] of dir?.entries() ?? []) o.entries.push({ name, dir: h.kind === 'directory' });
    }
    const base = o.path === '' ? '' : `${o.path}/`;
    let i = indexFrom(cookie);
    const end = most > 0 ? Math.min(o.entries.length, i + most) : o.entries.length;
    let at = 0;
    for (; i < end; i++) {
      const e = o.entries[i];
      const name = encoder.encode(e.name);
      if (at + direntBytes(name.length) > len) break;
      at += writeDirent(view, ptr + at, { next: cookieAfter(i), ino: this.ino(base + e.name), type: e.dir ? DT.DIR : DT.REG, name });
    }
    if (at === 0 && i < o.entries.length) throw new Errno(E.EINVAL); // buffer too small for one
    return at;
  }

  /** The handle of the open directory o, or null once nothing is at its path (it was removed). */
  async #openDir(o) {
    try {
      return await this.walker.dirOf(splitPath(o.path));
    } catch (err) {
      if (err instanceof Errno && (err.code === E.ENOENT || err.code === E.ENOTDIR)) return null;
      throw err;
    }
  }

  // ---- namespace (worker 0) ----

  /**
   * Whether a worker may hold the file at rel open. OPFS refuses to remove or move a file only
   * while it has a sync access handle, and one whose bytes are still in memory has none.
   */
  #held(rel) { return this.owners.holderOf(rel) >= 0; }

  async mkdir(rel) {
    const { dir, name } = await this.walker.parentOf(rel).catch((err) => {
      throw err instanceof Errno && err.code === E.EBUSY ? new Errno(E.EEXIST) : err;
    });
    if (await lookup(dir, name)) throw new Errno(E.EEXIST);
    await dir.getDirectoryHandle(name, { create: true });
    return 0;
  }

  async unlink(rel, rmdir) {
    const { dir, name } = await this.walker.parentOf(rel);
    // a file the program created or opened needs no lookup to be known for a file
    const entry = (!rmdir && this.handles.get(rel)) || await lookup(dir, name);
    if (!entry) throw new Errno(E.ENOENT);
    if (rmdir && entry.kind !== 'directory') throw new Errno(E.ENOTDIR);
    if (rmdir) {
      for await (const _ of entry.keys()) throw new Errno(E.ENOTEMPTY); // eslint-disable-line no-unused-vars
    }
    if (!rmdir && entry.kind === 'directory') throw new Errno(E.EISDIR);
    try {
      if (!rmdir && this.#held(rel)) throw HELD;
      await dir.removeEntry(name);
    } catch (err) {
      if (err.name !== 'NoModificationAllowedError' || rmdir) throw new Errno(errnoOf(err));
      // open somewhere: its open descriptions keep the bytes, then remove it (or, if either step
      // fails, they go back to the file)
      let ok = false;
      try {
        await this.detachEverywhere({ kind: 'unlink', path: rel });
        await dir.removeEntry(name);
        ok = true;
      } catch (failure) {
        throw new Errno(errnoOf(failure));
      } finally {
        await this.settleEverywhere({ path: rel, ok });
      }
    }
    this.bump(rel);
    if (rmdir) this.identity.dirsChanged();
    return 0;
  }

  async rename(from, to) {
    const src = await this.walker.parentOf(from);
    const dst = await this.walker.parentOf(to);
    const entry = this.handles.get(from) ?? await lookup(src.dir, src.name);
    if (!entry) throw new Errno(E.ENOENT);
    const target = await lookup(dst.dir, dst.name);
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
    if (entry.kind === 'file' && !this.#held(from) && !this.#held(to)) {
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
    // Detach what is open under `from` (and a replaced target), then move, then reattach (also
    // when a worker failed to detach: what was detached goes back to its place).
    let ok = false;
    try {
      await this.detachEverywhere({ kind: 'rename', path: from, to });
      if (target?.kind === 'file') await this.detachEverywhere({ kind: 'unlink', path: to });
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
      if (entry.kind === 'directory') this.identity.dirsChanged();
    } catch (err) {
      throw new Errno(errnoOf(err, { typeMismatch: E.ENOTDIR }));
    } finally {
      await this.settleEverywhere({ path: from, ok });
      if (target?.kind === 'file') await this.settleEverywhere({ path: to, ok });
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

  /**
   * This worker's part of detaching (opfs-detach.js). A file whose bytes are still in memory is
   * written out first: the detach then treats it as any file with a handle.
   */
  async detach(msg) {
    for (const file of this.files.values()) {
      if (file.path === msg.path || file.path.startsWith(`${msg.path}/`)) await this.#writeOut(file);
    }
    return detach(this.files, msg);
  }

  /**
   * This worker's part of settling (opfs-detach.js); then the files are held under their new
   * paths (an unlinked one under none: a new file may take its name).
   */
  async settle(msg) {
    const files = [...this.files.values()];
    const reopened = settle(this.files, msg, (f) => reattach(f, this.walker, (x, fh) => this.attach(x, fh), this.debug));
    for (const file of files) {
      if (file.path === file.claimed) continue;
      this.#letGo(file);
      if (file.detached) continue;
      if (this.owners.claim(file.path) < 0) file.claimed = file.path;
      this.files.set(file.path, file);
    }
    await reopened;
  }
}

// What unlink takes for OPFS's refusal to remove an open file, for a file held without a handle
const HELD = Object.assign(new Error('held open by an I/O worker'), { name: 'NoModificationAllowedError' });

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
