// WASI preopened directories for modules without Spindle's filesystem (plain `cargo build`,
// `spindle cc --bare`): `--mount=/PATH=HOSTDIR` in Node becomes a WASI preopen whose file calls
// (path_open, fd_read, fd_readdir, ...) are served here. Each call is one request of the mount
// protocol (docs/MOUNTS.md) to the host-directory backend (host/mount/hostdir/hostdir.js), which does the
// confinement (no `..` or symlink escape); this file only translates WASI to requests, and,
// where the host lets everything through (root), checks the modes as Linux would for the files'
// ordinary owner (preopen-permission.js).
//
// Threads share the fd table: it lives in a SharedArrayBuffer (createFdTable), and Node file
// descriptors belong to the process, so a file opened by one thread is used by any other.
import { HandleError } from '../mount/handle-table.js';
import { backendClient } from '../mount/index.js';
import { AT, O } from '../abi/linux.js';
import { FSYNC_DATASYNC, OP, REQ } from '../abi/mount-request.js';
import { readDirents, STAT as WIRE_STAT } from '../abi/mount-wire.js';
import { preopenChecks } from './preopen-permission.js';
import {
  DIRENT, ERRNO, FDFLAGS, FDSTAT, FILESTAT, FILETYPE, IOVEC, LOOKUPFLAGS, OFLAGS, PRESTAT, PREOPENTYPE, RIGHTS,
} from '../abi/wasi.js';
import { errnoFromLinux, filetypeOfDt, filetypeOfMode } from '../abi/wasi-translate.js';

const FIRST_FD = 3;
const MAX_FDS = 1024;
// kind, spare, mount, fdflags, position (i64 at ints 4-5), the mount's handle (i64 at ints 6-7:
// what the backend's OPEN gave, never a Node fd; docs/MOUNTS.md)
const SLOT_INTS = 8;
const KIND = { FREE: 0, CLAIMED: 1, FILE: 2, DIR: 3, PREOPEN: 4 };

// The scratch request: the protocol's request block, two paths and a data area.
const AT_REQ = 0;
const PATH1 = 128;
const PATH2 = PATH1 + 4096;
const DATA = PATH2 + 4096;
const DATA_SIZE = 64 * 1024;
const STAT = DATA; // FSTAT/STAT/OPEN write their stat here

class WasiError extends Error {
  constructor(errno) { super(`wasi errno ${errno}`); this.errno = errno; }
}
const fail = (errno) => { throw new WasiError(errno); };

/** Coordinator: the shared fd table, preopens for mounts 0..n-1 at fds 3..3+n-1. */
export function createFdTable(mountCount) {
  const table = new Int32Array(new SharedArrayBuffer(MAX_FDS * SLOT_INTS * 4));
  for (let m = 0; m < mountCount; m++) {
    table[m * SLOT_INTS] = KIND.PREOPEN;
    new BigInt64Array(table.buffer)[m * SLOT_INTS / 2 + 3] = -1n; // its handle, opened when first needed
    table[m * SLOT_INTS + 2] = m;
  }
  return table.buffer;
}

/**
 * Thread worker: `base` (host/wasi/imports.js's imports) with the file calls served from the mounts.
 * Stdio and anything else stay with `base`.
 */
export function withHostFiles(base, { memory, mounts, table: tableBuffer }) {
  const table = new Int32Array(tableBuffer);
  const wide = new BigInt64Array(tableBuffer); // a slot's i64 fields
  const positions = wide;
  const calls = mounts.map((m) => backendClient(m, memory));
  const roots = mounts.map((m) => m.config.root);
  const scratch = new ArrayBuffer(DATA + DATA_SIZE);
  const sv = new DataView(scratch);
  const su8 = new Uint8Array(scratch);
  const view = () => new DataView(memory.buffer);
  const mem = () => new Uint8Array(memory.buffer);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const slotOf = (fd) => {
    const i = fd - FIRST_FD;
    if (!Number.isInteger(i) || i < 0 || i >= MAX_FDS) return -1;
    const kind = Atomics.load(table, i * SLOT_INTS);
    return kind >= KIND.FILE ? i * SLOT_INTS : -1;
  };
  const entry = (fd) => {
    const s = slotOf(fd);
    if (s < 0) fail(ERRNO.BADF);
    return { s, kind: table[s], handle: wide[s / 2 + 3], mount: table[s + 2], flags: table[s + 3] };
  };
  const position = (s) => positions[s / 2 + 2];
  const setPosition = (s, value) => { positions[s / 2 + 2] = value; };

  // One request to mount `m`; returns its result (>= 0) or throws its errno.
  function request(m, op, { flags = 0, handle = 0, offset = 0n, len = 0, path = null, path2 = null, mode = 0 } = {}) {
    su8.fill(0, AT_REQ, AT_REQ + REQ.BYTES);
    sv.setInt32(AT_REQ + REQ.OP, op, true);
    sv.setInt32(AT_REQ + REQ.MOUNT, m, true);
    sv.setInt32(AT_REQ + REQ.FLAGS, flags, true);
    sv.setBigUint64(AT_REQ + REQ.HANDLE, BigInt(handle), true);
    sv.setBigInt64(AT_REQ + REQ.OFFSET, BigInt(offset), true);
    sv.setUint32(AT_REQ + REQ.PTR, DATA, true);
    sv.setUint32(AT_REQ + REQ.LEN, len, true);
    for (const [at, text, field, lenField] of [[PATH1, path, REQ.PATH, REQ.PATH_LEN], [PATH2, path2, REQ.PATH2, REQ.PATH2_LEN]]) {
      if (text === null) continue;
      const bytes = encoder.encode(text);
      if (bytes.length > PATH2 - PATH1) fail(ERRNO.NAMETOOLONG);
      su8.set(bytes, at);
      sv.setUint32(AT_REQ + field, at, true);
      sv.setUint32(AT_REQ + lenField, bytes.length, true);
    }
    sv.setUint32(AT_REQ + REQ.MODE, mode, true);
    calls[m](sv, AT_REQ);
    const result = sv.getBigInt64(AT_REQ + REQ.RESULT, true);
    if (result < 0n) fail(errnoFromLinux(Number(-result)));
    return result;
  }

  // A path inside mount m, relative to its root: `..` never climbs above the root.
  function relative(base, path) {
    const parts = base ? base.split('/') : [];
    for (const c of path.split('/')) {
      if (c === '' || c === '.') continue;
      if (c === '..') {
        if (!parts.length) fail(ERRNO.NOTCAPABLE);
        parts.pop();
      } else {
        parts.push(c);
      }
    }
    return parts.join('/');
  }

  // The directory a path_* call starts from: a preopen (its mount root) or an open directory.
  function dirBase(fd) {
    const e = entry(fd);
    if (e.kind === KIND.PREOPEN) return { m: e.mount, base: '' };
    if (e.kind !== KIND.DIR) fail(ERRNO.NOTDIR);
    const real = calls[e.mount].realPath(e.handle);
    const root = roots[e.mount];
    if (real !== root && !real.startsWith(`${root}/`)) fail(ERRNO.NOTCAPABLE);
    return { m: e.mount, base: real.slice(root.length + 1) };
  }

  function pathAt(fd, ptr, len) {
    if (ptr < 0 || len < 0 || ptr + len > memory.buffer.byteLength) fail(ERRNO.FAULT);
    const { m, base } = dirBase(fd);
    return { m, rel: relative(base, decoder.decode(mem().slice(ptr, ptr + len))) };
  }

  function handleOf(e) {
    if (e.kind !== KIND.PREOPEN || e.handle >= 0n) return e.handle;
    request(e.mount, OP.OPEN, { path: '', flags: O.DIRECTORY });
    const opened = sv.getBigInt64(AT_REQ + REQ.HANDLE, true);
    const had = Atomics.compareExchange(wide, e.s / 2 + 3, -1n, opened);
    if (had === -1n) return opened;
    request(e.mount, OP.CLOSE, { handle: opened }); // another thread opened it first
    return had;
  }

  function allocate(kind, handle, m, flags) {
    for (let i = mounts.length; i < MAX_FDS; i++) {
      const s = i * SLOT_INTS;
      if (Atomics.compareExchange(table, s, KIND.FREE, KIND.CLAIMED) !== KIND.FREE) continue;
      wide[s / 2 + 3] = handle;
      table[s + 2] = m;
      table[s + 3] = flags;
      setPosition(s, 0n);
      Atomics.store(table, s, kind);
      return FIRST_FD + i;
    }
    return -1;
  }

  const statMode = () => sv.getUint32(STAT + WIRE_STAT.MODE, true);

  // the permission checks of each mount whose host lets everything through, else null
  const modeAt = (m) => (rel, follow) => {
    try {
      request(m, OP.STAT, { path: rel, flags: follow ? 0 : AT.SYMLINK_NOFOLLOW });
      return statMode();
    } catch (err) {
      if (err instanceof WasiError) return -1;
      throw err;
    }
  };
  const checks = mounts.map((mount, m) => (mount.checkModes ? preopenChecks(modeAt(m), fail) : null));
  const statSize = () => sv.getBigInt64(STAT + WIRE_STAT.SIZE, true);

  // The protocol's stat (at STAT in the scratch) as a WASI filestat at ptr.
  function putFilestat(ptr) {
    if (ptr < 0 || ptr + FILESTAT.BYTES > memory.buffer.byteLength) fail(ERRNO.FAULT);
    const dv = view();
    new Uint8Array(memory.buffer, ptr, FILESTAT.BYTES).fill(0);
    dv.setBigUint64(ptr + FILESTAT.INO, sv.getBigUint64(STAT + WIRE_STAT.INO, true), true);
    dv.setUint8(ptr + FILESTAT.FILETYPE, filetypeOfMode(statMode()));
    dv.setBigUint64(ptr + FILESTAT.NLINK, sv.getBigUint64(STAT + WIRE_STAT.NLINK, true), true);
    dv.setBigUint64(ptr + FILESTAT.SIZE, sv.getBigUint64(STAT + WIRE_STAT.SIZE, true), true);
    dv.setBigUint64(ptr + FILESTAT.ATIM, sv.getBigUint64(STAT + WIRE_STAT.ATIME_NS, true), true);
    dv.setBigUint64(ptr + FILESTAT.MTIM, sv.getBigUint64(STAT + WIRE_STAT.MTIME_NS, true), true);
    dv.setBigUint64(ptr + FILESTAT.CTIM, sv.getBigUint64(STAT + WIRE_STAT.CTIME_NS, true), true);
  }

  function iovecs(iovs, count) {
    if (iovs < 0 || iovs + count * IOVEC.BYTES > memory.buffer.byteLength) fail(ERRNO.FAULT);
    const dv = view();
    return Array.from({ length: count }, (_, i) => {
      const ptr = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.BUF, true);
      const len = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.LEN, true);
      if (ptr + len > memory.buffer.byteLength) fail(ERRNO.FAULT);
      return { ptr, len };
    });
  }

  // Reads or writes the iovecs at `offset`, in DATA_SIZE pieces; returns the byte count.
  function transfer(e, writing, list, offset) {
    let done = 0;
    for (const { ptr, len } of list) {
      for (let at = 0; at < len;) {
        const n = Math.min(DATA_SIZE, len - at);
        if (writing) su8.set(mem().subarray(ptr + at, ptr + at + n), DATA);
        const got = Number(request(e.mount, writing ? OP.PWRITE : OP.PREAD, { handle: e.handle, offset: offset + BigInt(done), len: n }));
        if (!writing) mem().set(su8.subarray(DATA, DATA + got), ptr + at);
        done += got;
        at += got;
        if (got < n) return done;
      }
    }
    return done;
  }

  function fileEntry(fd) {
    const e = entry(fd);
    if (e.kind === KIND.DIR || e.kind === KIND.PREOPEN) fail(ERRNO.ISDIR);
    return e;
  }

  // Each call: stdio (and unknown fds for non-path calls) go to base; errors become WASI errnos.
  const guard = (fn) => (...args) => {
    try {
      fn(...args);
      return ERRNO.SUCCESS;
    } catch (err) {
      if (err instanceof WasiError) return err.errno;
      if (err instanceof HandleError) return errnoFromLinux(err.errno);
      // (a host call outside the backend, or a pointer out of bounds: an error, never a trap)
      return err instanceof RangeError ? ERRNO.FAULT : err?.code === 'ENOENT' ? ERRNO.NOENT : ERRNO.IO;
    }
  };
  const isStdio = (fd) => fd >= 0 && fd <= 2;

  const overrides = {
    fd_prestat_get: (fd, ptr) => {
      const s = slotOf(fd);
      if (s < 0 || table[s] !== KIND.PREOPEN) return ERRNO.BADF;
      const dv = view();
      dv.setUint32(ptr + PRESTAT.TAG, PREOPENTYPE.DIR, true);
      dv.setUint32(ptr + PRESTAT.DIR_NAME_LEN, encoder.encode(mounts[table[s + 2]].path).length, true);
      return ERRNO.SUCCESS;
    },
    fd_prestat_dir_name: (fd, ptr, len) => {
      const s = slotOf(fd);
      if (s < 0 || table[s] !== KIND.PREOPEN) return ERRNO.BADF;
      const name = encoder.encode(mounts[table[s + 2]].path);
      if (len < name.length) return ERRNO.INVAL;
      mem().set(name, ptr);
      return ERRNO.SUCCESS;
    },
    path_open: guard((dirFd, dirFlags, pathPtr, pathLen, oflags, rightsBase, _inheriting, fdflags, fdPtr) => {
      const { m, rel } = pathAt(dirFd, pathPtr, pathLen);
      const read = (rightsBase & RIGHTS.FD_READ) !== 0n;
      const write = (rightsBase & RIGHTS.FD_WRITE) !== 0n || (oflags & OFLAGS.TRUNC) !== 0;
      let flags = write ? (read ? O.RDWR : O.WRONLY) : 0;
      if (oflags & OFLAGS.CREAT) flags |= O.CREAT;
      if (oflags & OFLAGS.EXCL) flags |= O.EXCL;
      if (oflags & OFLAGS.TRUNC) flags |= O.TRUNC;
      if (oflags & OFLAGS.DIRECTORY) flags |= O.DIRECTORY;
      if (!(dirFlags & LOOKUPFLAGS.SYMLINK_FOLLOW)) flags |= O.NOFOLLOW;
      checks[m]?.beforeOpen(rel, flags);
      request(m, OP.OPEN, { path: rel, flags, mode: 0o666 });
      const handle = sv.getBigInt64(AT_REQ + REQ.HANDLE, true);
      try {
        checks[m]?.opened(flags, statMode());
      } catch (err) {
        request(m, OP.CLOSE, { handle });
        throw err;
      }
      const isDir = filetypeOfMode(statMode()) === FILETYPE.DIRECTORY;
      const fd = allocate(isDir ? KIND.DIR : KIND.FILE, handle, m, fdflags & FDFLAGS.APPEND);
      if (fd < 0) {
        request(m, OP.CLOSE, { handle: handle });
        fail(ERRNO.MFILE);
      }
      view().setUint32(fdPtr, fd, true);
    }),
    fd_close: (fd) => {
      if (isStdio(fd) || slotOf(fd) < 0) return base.fd_close(fd);
      const e = entry(fd);
      if (e.kind === KIND.PREOPEN) return ERRNO.SUCCESS; // (kept: other threads resolve paths through it)
      Atomics.store(table, e.s, KIND.FREE);
      return guard(() => request(e.mount, OP.CLOSE, { handle: e.handle }))();
    },
    fd_read: (fd, iovs, count, nPtr) => (slotOf(fd) < 0 ? base.fd_read(fd, iovs, count, nPtr) : guard(() => {
      const e = fileEntry(fd);
      const n = transfer(e, false, iovecs(iovs, count), position(e.s));
      setPosition(e.s, position(e.s) + BigInt(n));
      view().setUint32(nPtr, n, true);
    })()),
    fd_write: (fd, iovs, count, nPtr) => (slotOf(fd) < 0 ? base.fd_write(fd, iovs, count, nPtr) : guard(() => {
      const e = fileEntry(fd);
      let at = position(e.s);
      if (e.flags & FDFLAGS.APPEND) {
        request(e.mount, OP.FSTAT, { handle: e.handle });
        at = statSize();
      }
      const n = transfer(e, true, iovecs(iovs, count), at);
      setPosition(e.s, at + BigInt(n));
      view().setUint32(nPtr, n, true);
    })()),
    fd_pread: guard((fd, iovs, count, offset, nPtr) => {
      view().setUint32(nPtr, transfer(fileEntry(fd), false, iovecs(iovs, count), offset), true);
    }),
    fd_pwrite: guard((fd, iovs, count, offset, nPtr) => {
      view().setUint32(nPtr, transfer(fileEntry(fd), true, iovecs(iovs, count), offset), true);
    }),
    fd_seek: (fd, offset, whence, newPtr) => (slotOf(fd) < 0 ? base.fd_seek(fd, offset, whence, newPtr) : guard(() => {
      const e = fileEntry(fd);
      let from = 0n;
      if (whence === 1) from = position(e.s);
      else if (whence === 2) {
        request(e.mount, OP.FSTAT, { handle: e.handle });
        from = statSize();
      } else if (whence !== 0) fail(ERRNO.INVAL);
      const to = from + offset;
      if (to < 0n) fail(ERRNO.INVAL);
      setPosition(e.s, to);
      view().setBigUint64(newPtr, to, true);
    })()),
    fd_tell: (fd, ptr) => (slotOf(fd) < 0 ? base.fd_tell(fd, ptr) : guard(() => {
      view().setBigUint64(ptr, position(fileEntry(fd).s), true);
    })()),
    fd_fdstat_get: (fd, ptr) => (slotOf(fd) < 0 ? base.fd_fdstat_get(fd, ptr) : guard(() => {
      const e = entry(fd);
      const dv = view();
      dv.setUint8(ptr + FDSTAT.FILETYPE, e.kind === KIND.FILE ? FILETYPE.REGULAR_FILE : FILETYPE.DIRECTORY);
      dv.setUint16(ptr + FDSTAT.FLAGS, e.flags, true);
      dv.setBigUint64(ptr + FDSTAT.RIGHTS_BASE, RIGHTS.ALL, true);
      dv.setBigUint64(ptr + FDSTAT.RIGHTS_INHERITING, RIGHTS.ALL, true);
    })()),
    fd_fdstat_set_flags: (fd, flags) => (slotOf(fd) < 0 ? base.fd_fdstat_set_flags(fd, flags) : guard(() => {
      const e = entry(fd);
      table[e.s + 3] = flags & FDFLAGS.APPEND;
    })()),
    fd_filestat_get: (fd, ptr) => (slotOf(fd) < 0 ? base.fd_filestat_get(fd, ptr) : guard(() => {
      const e = entry(fd);
      request(e.mount, OP.FSTAT, { handle: handleOf(e) });
      putFilestat(ptr);
    })()),
    fd_filestat_set_size: guard((fd, size) => {
      const e = fileEntry(fd);
      request(e.mount, OP.FTRUNCATE, { handle: e.handle, offset: size });
    }),
    fd_sync: (fd) => (slotOf(fd) < 0 ? base.fd_sync(fd) : guard(() => {
      const e = fileEntry(fd);
      request(e.mount, OP.FSYNC, { handle: e.handle });
    })()),
    fd_datasync: (fd) => (slotOf(fd) < 0 ? base.fd_datasync(fd) : guard(() => {
      const e = fileEntry(fd);
      request(e.mount, OP.FSYNC, { handle: e.handle, flags: FSYNC_DATASYNC });
    })()),
    fd_readdir: guard((fd, buf, len, cookie, usedPtr) => {
      const e = entry(fd);
      if (e.kind === KIND.FILE) fail(ERRNO.NOTDIR);
      const got = Number(request(e.mount, OP.READDIR, { handle: handleOf(e), offset: cookie, len: DATA_SIZE }));
      // the protocol's entries as WASI dirents, each followed by its name (a last one may be cut)
      const out = new Uint8Array(len);
      let used = 0;
      for (const d of readDirents(sv, DATA, got)) {
        if (used >= len) break;
        const entryBytes = new Uint8Array(DIRENT.BYTES + d.name.length);
        const ev = new DataView(entryBytes.buffer);
        ev.setBigUint64(DIRENT.NEXT, d.next, true);
        ev.setBigUint64(DIRENT.INO, d.ino, true);
        ev.setUint32(DIRENT.NAMLEN, d.name.length, true);
        ev.setUint8(DIRENT.TYPE, filetypeOfDt(d.type));
        entryBytes.set(d.name, DIRENT.BYTES);
        const n = Math.min(entryBytes.length, len - used);
        out.set(entryBytes.subarray(0, n), used);
        used += n;
      }
      mem().set(out.subarray(0, used), buf);
      view().setUint32(usedPtr, used, true);
    }),
    path_filestat_get: guard((fd, lookupFlags, pathPtr, pathLen, ptr) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      checks[m]?.search(rel);
      request(m, OP.STAT, { path: rel, flags: lookupFlags & LOOKUPFLAGS.SYMLINK_FOLLOW ? 0 : AT.SYMLINK_NOFOLLOW });
      putFilestat(ptr);
    }),
    path_create_directory: guard((fd, pathPtr, pathLen) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      checks[m]?.nameChanges(rel, 'added');
      request(m, OP.MKDIR, { path: rel, mode: 0o777 });
    }),
    path_unlink_file: guard((fd, pathPtr, pathLen) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      checks[m]?.nameChanges(rel, 'removed');
      request(m, OP.UNLINK, { path: rel });
    }),
    path_remove_directory: guard((fd, pathPtr, pathLen) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      checks[m]?.nameChanges(rel, 'removed');
      request(m, OP.UNLINK, { path: rel, flags: AT.REMOVEDIR });
    }),
    path_rename: guard((fd, oldPtr, oldLen, newFd, newPtr, newLen) => {
      const from = pathAt(fd, oldPtr, oldLen);
      const to = pathAt(newFd, newPtr, newLen);
      if (from.m !== to.m) fail(ERRNO.XDEV); // two mounts
      checks[from.m]?.nameChanges(from.rel, 'removed');
      checks[from.m]?.nameChanges(to.rel, 'replaced');
      checks[from.m]?.movedDir(from.rel, to.rel);
      request(from.m, OP.RENAME, { path: from.rel, path2: to.rel });
    }),
  };
  return new Proxy(base, { get: (target, name) => overrides[name] ?? target[name] });
}
