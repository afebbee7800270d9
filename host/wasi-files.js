// WASI preopened directories for modules without Spindle's filesystem (plain `cargo build`,
// `spindle cc --bare`): `--mount=/PATH=HOSTDIR` in Node becomes a WASI preopen whose file calls
// (path_open, fd_read, fd_readdir, ...) are served here. Each call is one request of the mount
// protocol (docs/MOUNTS.md) to the host-directory backend (host/mount/hostdir.js), which does the
// confinement (no `..` or symlink escape); this file only translates WASI to requests.
//
// Threads share the fd table: it lives in a SharedArrayBuffer (createFdTable), and Node file
// descriptors belong to the process, so a file opened by one thread is used by any other.
import { readlinkSync } from 'node:fs';
import { backendClient } from './mount/index.js';
import { ERRNO } from './wasi.js';

const FIRST_FD = 3;
const MAX_FDS = 1024;
const SLOT_INTS = 8; // kind, host fd, mount, fdflags, position (i64 at ints 4-5), spare
const KIND = { FREE: 0, CLAIMED: 1, FILE: 2, DIR: 3, PREOPEN: 4 };
const OP = { OPEN: 1, CLOSE: 2, READ: 3, WRITE: 4, FSTAT: 5, TRUNCATE: 6, SYNC: 7, READDIR: 8, STAT: 9,
  MKDIR: 10, UNLINK: 11, RENAME: 12 };
const FILETYPE = { UNKNOWN: 0, DIRECTORY: 3, REGULAR_FILE: 4, SYMBOLIC_LINK: 7 };
const OFLAGS = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
const FDFLAGS_APPEND = 1;
const RIGHT_FD_READ = 1n << 1n;
const RIGHT_FD_WRITE = 1n << 6n;
const RIGHTS_ALL = 0x1fffffffn;
const LOOKUP_SYMLINK_FOLLOW = 1;
// Linux open flags and *at flags of the mount protocol
const O = { WRONLY: 1, RDWR: 2, CREAT: 0o100, EXCL: 0o200, TRUNC: 0o1000, DIRECTORY: 0o200000, NOFOLLOW: 0o400000 };
const AT_SYMLINK_NOFOLLOW = 0x100;
const AT_REMOVEDIR = 0x200;
// Linux errno (the protocol's) -> WASI errno
const WASI_ERRNO = new Map([[1, 63], [2, 44], [5, 29], [9, 8], [12, 48], [13, 2], [16, 10], [17, 20], [18, 75],
  [19, 43], [20, 54], [21, 31], [22, 28], [23, 41], [24, 33], [26, 74], [27, 22], [28, 51], [29, 70], [30, 69],
  [31, 34], [36, 37], [39, 55], [40, 32], [75, 61], [95, 58], [122, 19]]);
const NOTCAPABLE = 76;

// The scratch request: the protocol's request block, two paths and a data area.
const REQ = 0;
const PATH1 = 128;
const PATH2 = PATH1 + 4096;
const DATA = PATH2 + 4096;
const DATA_SIZE = 64 * 1024;
const STAT = DATA; // FSTAT/STAT/OPEN write 64 bytes of stat here

class WasiError extends Error {
  constructor(errno) { super(`wasi errno ${errno}`); this.errno = errno; }
}
const fail = (errno) => { throw new WasiError(errno); };

/** Coordinator: the shared fd table, preopens for mounts 0..n-1 at fds 3..3+n-1. */
export function createFdTable(mountCount) {
  const table = new Int32Array(new SharedArrayBuffer(MAX_FDS * SLOT_INTS * 4));
  for (let m = 0; m < mountCount; m++) {
    table[m * SLOT_INTS] = KIND.PREOPEN;
    table[m * SLOT_INTS + 1] = -1; // its host fd, opened when first needed
    table[m * SLOT_INTS + 2] = m;
  }
  return table.buffer;
}

/**
 * Thread worker: `base` (host/wasi.js's imports) with the file calls served from the mounts.
 * Stdio and anything else stay with `base`.
 */
export function withHostFiles(base, { memory, mounts, table: tableBuffer }) {
  const table = new Int32Array(tableBuffer);
  const positions = new BigInt64Array(tableBuffer);
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
    return { s, kind: table[s], hostFd: table[s + 1], mount: table[s + 2], flags: table[s + 3] };
  };
  const position = (s) => positions[s / 2 + 2];
  const setPosition = (s, value) => { positions[s / 2 + 2] = value; };

  // One request to mount `m`; returns its result (>= 0) or throws its errno.
  function request(m, op, { flags = 0, handle = 0, offset = 0n, len = 0, path = null, path2 = null, mode = 0 } = {}) {
    su8.fill(0, REQ, PATH1);
    sv.setInt32(REQ + 4, op, true);
    sv.setInt32(REQ + 8, m, true);
    sv.setInt32(REQ + 12, flags, true);
    sv.setBigUint64(REQ + 24, BigInt(handle), true);
    sv.setBigInt64(REQ + 32, BigInt(offset), true);
    sv.setUint32(REQ + 40, DATA, true);
    sv.setUint32(REQ + 44, len, true);
    for (const [at, text, field] of [[PATH1, path, 48], [PATH2, path2, 56]]) {
      if (text === null) continue;
      const bytes = encoder.encode(text);
      if (bytes.length > 4096) fail(37); // NAMETOOLONG
      su8.set(bytes, at);
      sv.setUint32(REQ + field, at, true);
      sv.setUint32(REQ + field + 4, bytes.length, true);
    }
    sv.setUint32(REQ + 64, mode, true);
    calls[m](sv, REQ);
    const result = sv.getBigInt64(REQ + 16, true);
    if (result < 0n) fail(WASI_ERRNO.get(Number(-result)) ?? ERRNO.INVAL);
    return result;
  }

  // A path inside mount m, relative to its root: `..` never climbs above the root.
  function relative(base, path) {
    const parts = base ? base.split('/') : [];
    for (const c of path.split('/')) {
      if (c === '' || c === '.') continue;
      if (c === '..') {
        if (!parts.length) fail(NOTCAPABLE);
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
    if (e.kind !== KIND.DIR) fail(54); // NOTDIR
    const real = readlinkSync(`/proc/self/fd/${e.hostFd}`);
    const root = roots[e.mount];
    if (real !== root && !real.startsWith(`${root}/`)) fail(NOTCAPABLE);
    return { m: e.mount, base: real.slice(root.length + 1) };
  }

  function pathAt(fd, ptr, len) {
    if (ptr < 0 || len < 0 || ptr + len > memory.buffer.byteLength) fail(ERRNO.FAULT);
    const { m, base } = dirBase(fd);
    return { m, rel: relative(base, decoder.decode(mem().slice(ptr, ptr + len))) };
  }

  function hostFdOf(e) {
    if (e.kind !== KIND.PREOPEN || e.hostFd >= 0) return e.hostFd;
    request(e.mount, OP.OPEN, { path: '', flags: O.DIRECTORY });
    const opened = Number(sv.getBigUint64(REQ + 24, true));
    const had = Atomics.compareExchange(table, e.s + 1, -1, opened);
    if (had === -1) return opened;
    request(e.mount, OP.CLOSE, { handle: opened }); // another thread opened it first
    return had;
  }

  function allocate(kind, hostFd, m, flags) {
    for (let i = mounts.length; i < MAX_FDS; i++) {
      const s = i * SLOT_INTS;
      if (Atomics.compareExchange(table, s, KIND.FREE, KIND.CLAIMED) !== KIND.FREE) continue;
      table[s + 1] = hostFd;
      table[s + 2] = m;
      table[s + 3] = flags;
      setPosition(s, 0n);
      Atomics.store(table, s, kind);
      return FIRST_FD + i;
    }
    return -1;
  }

  const fileType = (mode) => {
    const type = mode & 0o170000;
    if (type === 0o040000) return FILETYPE.DIRECTORY;
    if (type === 0o100000) return FILETYPE.REGULAR_FILE;
    if (type === 0o120000) return FILETYPE.SYMBOLIC_LINK;
    return FILETYPE.UNKNOWN;
  };

  // The protocol's stat (at STAT in the scratch) as a WASI filestat at ptr.
  function putFilestat(ptr) {
    if (ptr < 0 || ptr + 64 > memory.buffer.byteLength) fail(ERRNO.FAULT);
    const dv = view();
    dv.setBigUint64(ptr, 0n, true);
    dv.setBigUint64(ptr + 8, sv.getBigUint64(STAT, true), true);
    dv.setBigUint64(ptr + 16, BigInt(fileType(sv.getUint32(STAT + 8, true))), true);
    dv.setBigUint64(ptr + 24, sv.getBigUint64(STAT + 16, true), true);
    dv.setBigUint64(ptr + 32, sv.getBigUint64(STAT + 24, true), true);
    for (const at of [40, 48, 56]) dv.setBigUint64(ptr + at, sv.getBigUint64(STAT + at, true), true);
  }

  function iovecs(iovs, count) {
    if (iovs < 0 || iovs + count * 8 > memory.buffer.byteLength) fail(ERRNO.FAULT);
    const dv = view();
    return Array.from({ length: count }, (_, i) => {
      const ptr = dv.getUint32(iovs + i * 8, true);
      const len = dv.getUint32(iovs + i * 8 + 4, true);
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
        const got = Number(request(e.mount, writing ? OP.WRITE : OP.READ, { handle: e.hostFd, offset: offset + BigInt(done), len: n }));
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
    if (e.kind === KIND.DIR || e.kind === KIND.PREOPEN) fail(31); // ISDIR
    return e;
  }

  // Each call: stdio (and unknown fds for non-path calls) go to base; errors become WASI errnos.
  const guard = (fn) => (...args) => {
    try {
      fn(...args);
      return ERRNO.SUCCESS;
    } catch (err) {
      if (err instanceof WasiError) return err.errno;
      // (a host call outside the backend, or a pointer out of bounds: an error, never a trap)
      return err instanceof RangeError ? ERRNO.FAULT : err?.code === 'ENOENT' ? 44 : 29;
    }
  };
  const isStdio = (fd) => fd >= 0 && fd <= 2;

  const overrides = {
    fd_prestat_get: (fd, ptr) => {
      const s = slotOf(fd);
      if (s < 0 || table[s] !== KIND.PREOPEN) return ERRNO.BADF;
      const dv = view();
      dv.setUint32(ptr, 0, true);
      dv.setUint32(ptr + 4, encoder.encode(mounts[table[s + 2]].path).length, true);
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
      const read = (rightsBase & RIGHT_FD_READ) !== 0n;
      const write = (rightsBase & RIGHT_FD_WRITE) !== 0n || (oflags & OFLAGS.TRUNC) !== 0;
      let flags = write ? (read ? O.RDWR : O.WRONLY) : 0;
      if (oflags & OFLAGS.CREAT) flags |= O.CREAT;
      if (oflags & OFLAGS.EXCL) flags |= O.EXCL;
      if (oflags & OFLAGS.TRUNC) flags |= O.TRUNC;
      if (oflags & OFLAGS.DIRECTORY) flags |= O.DIRECTORY;
      if (!(dirFlags & LOOKUP_SYMLINK_FOLLOW)) flags |= O.NOFOLLOW;
      request(m, OP.OPEN, { path: rel, flags, mode: 0o666 });
      const hostFd = Number(sv.getBigUint64(REQ + 24, true));
      const isDir = fileType(sv.getUint32(STAT + 8, true)) === FILETYPE.DIRECTORY;
      const fd = allocate(isDir ? KIND.DIR : KIND.FILE, hostFd, m, fdflags & FDFLAGS_APPEND);
      if (fd < 0) {
        request(m, OP.CLOSE, { handle: hostFd });
        fail(33); // MFILE
      }
      view().setUint32(fdPtr, fd, true);
    }),
    fd_close: (fd) => {
      if (isStdio(fd) || slotOf(fd) < 0) return base.fd_close(fd);
      const e = entry(fd);
      if (e.kind === KIND.PREOPEN) return ERRNO.SUCCESS; // (kept: other threads resolve paths through it)
      Atomics.store(table, e.s, KIND.FREE);
      return guard(() => request(e.mount, OP.CLOSE, { handle: e.hostFd }))();
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
      if (e.flags & FDFLAGS_APPEND) {
        request(e.mount, OP.FSTAT, { handle: e.hostFd });
        at = sv.getBigInt64(STAT + 24, true);
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
        request(e.mount, OP.FSTAT, { handle: e.hostFd });
        from = sv.getBigInt64(STAT + 24, true);
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
      dv.setUint8(ptr, e.kind === KIND.FILE ? FILETYPE.REGULAR_FILE : FILETYPE.DIRECTORY);
      dv.setUint16(ptr + 2, e.flags, true);
      dv.setBigUint64(ptr + 8, RIGHTS_ALL, true);
      dv.setBigUint64(ptr + 16, RIGHTS_ALL, true);
    })()),
    fd_fdstat_set_flags: (fd, flags) => (slotOf(fd) < 0 ? base.fd_fdstat_set_flags(fd, flags) : guard(() => {
      const e = entry(fd);
      table[e.s + 3] = flags & FDFLAGS_APPEND;
    })()),
    fd_filestat_get: (fd, ptr) => (slotOf(fd) < 0 ? base.fd_filestat_get(fd, ptr) : guard(() => {
      const e = entry(fd);
      request(e.mount, OP.FSTAT, { handle: hostFdOf(e) });
      putFilestat(ptr);
    })()),
    fd_filestat_set_size: guard((fd, size) => {
      const e = fileEntry(fd);
      request(e.mount, OP.TRUNCATE, { handle: e.hostFd, offset: size });
    }),
    fd_sync: (fd) => (slotOf(fd) < 0 ? base.fd_sync(fd) : guard(() => {
      const e = fileEntry(fd);
      request(e.mount, OP.SYNC, { handle: e.hostFd });
    })()),
    fd_datasync: (fd) => (slotOf(fd) < 0 ? base.fd_datasync(fd) : guard(() => {
      const e = fileEntry(fd);
      request(e.mount, OP.SYNC, { handle: e.hostFd, flags: 1 });
    })()),
    fd_readdir: guard((fd, buf, len, cookie, usedPtr) => {
      const e = entry(fd);
      if (e.kind === KIND.FILE) fail(54); // NOTDIR
      const got = Number(request(e.mount, OP.READDIR, { handle: hostFdOf(e), offset: cookie, len: DATA_SIZE }));
      // protocol entry: next u64, ino u64, type u8, pad, namelen u16, pad u32, name, to 8 bytes;
      // WASI dirent: next u64, ino u64, namelen u32, type u8, 3 pad, name (a last one may be cut)
      const out = new Uint8Array(len);
      let used = 0;
      for (let at = 0; at < got && used < len;) {
        const nameLen = sv.getUint16(DATA + at + 18, true);
        const entryBytes = new Uint8Array(24 + nameLen);
        const ev = new DataView(entryBytes.buffer);
        ev.setBigUint64(0, sv.getBigUint64(DATA + at, true), true);
        ev.setBigUint64(8, sv.getBigUint64(DATA + at + 8, true), true);
        ev.setUint32(16, nameLen, true);
        const type = sv.getUint8(DATA + at + 16);
        ev.setUint8(20, type === 4 ? FILETYPE.DIRECTORY : type === 8 ? FILETYPE.REGULAR_FILE : type === 10 ? FILETYPE.SYMBOLIC_LINK : FILETYPE.UNKNOWN);
        entryBytes.set(su8.subarray(DATA + at + 24, DATA + at + 24 + nameLen), 24);
        const n = Math.min(entryBytes.length, len - used);
        out.set(entryBytes.subarray(0, n), used);
        used += n;
        at += (24 + nameLen + 7) & ~7;
      }
      mem().set(out.subarray(0, used), buf);
      view().setUint32(usedPtr, used, true);
    }),
    path_filestat_get: guard((fd, lookupFlags, pathPtr, pathLen, ptr) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      request(m, OP.STAT, { path: rel, flags: lookupFlags & LOOKUP_SYMLINK_FOLLOW ? 0 : AT_SYMLINK_NOFOLLOW });
      putFilestat(ptr);
    }),
    path_create_directory: guard((fd, pathPtr, pathLen) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      request(m, OP.MKDIR, { path: rel, mode: 0o777 });
    }),
    path_unlink_file: guard((fd, pathPtr, pathLen) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      request(m, OP.UNLINK, { path: rel });
    }),
    path_remove_directory: guard((fd, pathPtr, pathLen) => {
      const { m, rel } = pathAt(fd, pathPtr, pathLen);
      request(m, OP.UNLINK, { path: rel, flags: AT_REMOVEDIR });
    }),
    path_rename: guard((fd, oldPtr, oldLen, newFd, newPtr, newLen) => {
      const from = pathAt(fd, oldPtr, oldLen);
      const to = pathAt(newFd, newPtr, newLen);
      if (from.m !== to.m) fail(75); // XDEV: two mounts
      request(from.m, OP.RENAME, { path: from.rel, path2: to.rel });
    }),
  };
  return new Proxy(base, { get: (target, name) => overrides[name] ?? target[name] });
}
