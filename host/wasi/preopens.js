// WASI preopened directories for modules without Spindle's filesystem (plain `cargo build`,
// `spindle cc --bare`): `--mount=/PATH=HOSTDIR` in Node becomes a WASI preopen whose file calls
// (path_open, fd_read, fd_readdir, ...) are served here, as a backend of host/wasi/file-calls.js
// (which reads the calls' arguments and writes their results). Each operation is one request of the
// mount protocol (docs/MOUNTS.md) to the host-directory backend (host/mount/hostdir/hostdir.js), which
// does the confinement (no `..` or symlink escape); this file only turns operations into requests, and,
// where the host lets everything through (root), checks the modes as Linux would for the files'
// ordinary owner (preopen-permission.js).
//
// Threads share the fd table: it lives in a SharedArrayBuffer (createFdTable), and Node file
// descriptors belong to the process, so a file opened by one thread is used by any other.
import { HandleError } from '../mount/handle-table.js';
import { backendClient } from '../mount/index.js';
import { AT, O, S } from '../abi/linux.js';
import { FSYNC_DATASYNC, OP, REQ } from '../abi/mount-request.js';
import { readDirents, STAT as WIRE_STAT } from '../abi/mount-wire.js';
import { preopenChecks } from './preopen-permission.js';
import { ERRNO, FDFLAGS, FILETYPE, RIGHTS } from '../abi/wasi.js';
import { errnoFromLinux, filetypeOfMode, statusFlagsFromFdflags } from '../abi/wasi-translate.js';
import { fileCalls } from './file-calls.js';
import { fail, guestMemory, WasiError } from './guest-memory.js';

const FIRST_FD = 3;
const MAX_FDS = 1024;
// kind, spare, mount, Linux status flags (O_APPEND only), position (i64 at ints 4-5), the
// mount's handle (i64 at ints 6-7: what the backend's OPEN gave, never a Node fd; docs/MOUNTS.md)
const SLOT_INTS = 8;
const KIND = { FREE: 0, CLAIMED: 1, FILE: 2, DIR: 3, PREOPEN: 4 };

// The scratch request: the protocol's request block, two paths and a data area.
const AT_REQ = 0;
const PATH1 = 128;
const PATH2 = PATH1 + 4096;
const DATA = PATH2 + 4096;
const DATA_SIZE = 64 * 1024;
const STAT = DATA; // FSTAT/STAT/OPEN write their stat here

// every file status flag path_open's fdflags can ask for (none goes to the mount's OPEN)
const STATUS_FLAGS = statusFlagsFromFdflags(FDFLAGS.APPEND | FDFLAGS.DSYNC | FDFLAGS.NONBLOCK | FDFLAGS.RSYNC | FDFLAGS.SYNC);
// the calls that answer stdio and fds outside the table from base (host/wasi/imports.js)
const BASE_FIRST = new Set(['fd_close', 'fd_read', 'fd_write', 'fd_seek', 'fd_tell', 'fd_fdstat_get',
  'fd_fdstat_set_flags', 'fd_filestat_get', 'fd_sync', 'fd_datasync']);

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
  const guest = guestMemory(memory);
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

  // The protocol's stat (at STAT in the scratch) as the call layer's (no device number).
  const wireField = (field) => sv.getBigUint64(STAT + field, true);
  const wireStat = () => ({ dev: 0, ino: wireField(WIRE_STAT.INO), mode: statMode(),
    nlink: wireField(WIRE_STAT.NLINK), size: wireField(WIRE_STAT.SIZE), atim: wireField(WIRE_STAT.ATIME_NS),
    mtim: wireField(WIRE_STAT.MTIME_NS), ctim: wireField(WIRE_STAT.CTIME_NS) });

  // Reads or writes the iovecs at `offset`, in DATA_SIZE pieces; returns the byte count.
  function transfer(e, writing, list, offset) {
    let done = 0;
    for (const [ptr, len] of list) {
      for (let at = 0; at < len;) {
        const n = Math.min(DATA_SIZE, len - at);
        if (writing) su8.set(guest.bytes().subarray(ptr + at, ptr + at + n), DATA);
        const got = Number(request(e.mount, writing ? OP.PWRITE : OP.PREAD, { handle: e.handle, offset: offset + BigInt(done), len: n }));
        if (!writing) guest.bytes().set(su8.subarray(DATA, DATA + got), ptr + at);
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

  function pathAt(fd, bytes) {
    const { m, base } = dirBase(fd);
    return { m, rel: relative(base, decoder.decode(bytes)) };
  }

  // the entries of a READDIR answer (in the scratch's data area) as the call layer takes them
  function* dirents(got) {
    for (const d of readDirents(sv, DATA, got)) yield { next: d.next, ino: d.ino, dt: d.type, name: d.name };
  }

  // The backend of host/wasi/file-calls.js: the calls' work on the shared fd table and the mounts.
  const backend = {
    truncWrites: true, // O_TRUNC opens for writing here: the backend's quota counts a truncation only then
    readv(fd, list) {
      const e = fileEntry(fd);
      const n = transfer(e, false, list, position(e.s));
      setPosition(e.s, position(e.s) + BigInt(n));
      return n;
    },
    writev(fd, list) {
      const e = fileEntry(fd);
      let at = position(e.s);
      if (e.flags & O.APPEND) {
        request(e.mount, OP.FSTAT, { handle: e.handle });
        at = statSize();
      }
      const n = transfer(e, true, list, at);
      setPosition(e.s, at + BigInt(n));
      return n;
    },
    preadv: (fd, list, offset) => transfer(fileEntry(fd), false, list, offset),
    pwritev: (fd, list, offset) => transfer(fileEntry(fd), true, list, offset),
    seek(fd, offset, whence) {
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
      return to;
    },
    tell: (fd) => position(fileEntry(fd).s),
    close(fd) {
      const e = entry(fd);
      if (e.kind === KIND.PREOPEN) return; // (kept: other threads resolve paths through it)
      Atomics.store(table, e.s, KIND.FREE);
      request(e.mount, OP.CLOSE, { handle: e.handle });
    },
    sync(fd) {
      const e = fileEntry(fd);
      request(e.mount, OP.FSYNC, { handle: e.handle });
    },
    datasync(fd) {
      const e = fileEntry(fd);
      request(e.mount, OP.FSYNC, { handle: e.handle, flags: FSYNC_DATASYNC });
    },
    // every right reported: the host's permissions, not rights, decide (preopen-permission.js)
    fdstat(fd) {
      const e = entry(fd);
      return { mode: e.kind === KIND.FILE ? S.IFREG : S.IFDIR, flags: e.flags, rights: RIGHTS.ALL };
    },
    setFlags(fd, flags) {
      const e = entry(fd);
      table[e.s + 3] = flags & O.APPEND;
    },
    fstat(fd) {
      const e = entry(fd);
      request(e.mount, OP.FSTAT, { handle: handleOf(e) });
      return wireStat();
    },
    truncate(fd, size) {
      const e = fileEntry(fd);
      request(e.mount, OP.FTRUNCATE, { handle: e.handle, offset: size });
    },
    readdir(fd, cookie) {
      const e = entry(fd);
      if (e.kind === KIND.FILE) fail(ERRNO.NOTDIR);
      return dirents(Number(request(e.mount, OP.READDIR, { handle: handleOf(e), offset: cookie, len: DATA_SIZE })));
    },
    prestat(fd) {
      const s = slotOf(fd);
      if (s < 0 || table[s] !== KIND.PREOPEN) fail(ERRNO.BADF);
      return encoder.encode(mounts[table[s + 2]].path);
    },
    open(dirFd, path, flags) {
      const { m, rel } = pathAt(dirFd, path);
      // O_APPEND is kept here, not given to the backend: fd_write puts the data at the end itself
      const openFlags = flags & ~STATUS_FLAGS;
      checks[m]?.beforeOpen(rel, openFlags);
      request(m, OP.OPEN, { path: rel, flags: openFlags, mode: 0o666 });
      const handle = sv.getBigInt64(AT_REQ + REQ.HANDLE, true);
      try {
        checks[m]?.opened(openFlags, statMode());
      } catch (err) {
        request(m, OP.CLOSE, { handle });
        throw err;
      }
      const isDir = filetypeOfMode(statMode()) === FILETYPE.DIRECTORY;
      const fd = allocate(isDir ? KIND.DIR : KIND.FILE, handle, m, flags & O.APPEND);
      if (fd < 0) {
        request(m, OP.CLOSE, { handle: handle });
        fail(ERRNO.MFILE);
      }
      return fd;
    },
    stat(dirFd, path, atFlags) {
      const { m, rel } = pathAt(dirFd, path);
      checks[m]?.search(rel);
      request(m, OP.STAT, { path: rel, flags: atFlags });
      return wireStat();
    },
    mkdir(dirFd, path) {
      const { m, rel } = pathAt(dirFd, path);
      checks[m]?.nameChanges(rel, 'added');
      request(m, OP.MKDIR, { path: rel, mode: 0o777 });
    },
    unlink(dirFd, path) {
      const { m, rel } = pathAt(dirFd, path);
      checks[m]?.nameChanges(rel, 'removed');
      request(m, OP.UNLINK, { path: rel });
    },
    rmdir(dirFd, path) {
      const { m, rel } = pathAt(dirFd, path);
      checks[m]?.nameChanges(rel, 'removed');
      request(m, OP.UNLINK, { path: rel, flags: AT.REMOVEDIR });
    },
    rename(oldFd, oldPath, newFd, newPath) {
      const from = pathAt(oldFd, oldPath);
      const to = pathAt(newFd, newPath);
      if (from.m !== to.m) fail(ERRNO.XDEV); // two mounts
      checks[from.m]?.nameChanges(from.rel, 'removed');
      checks[from.m]?.nameChanges(to.rel, 'replaced');
      checks[from.m]?.movedDir(from.rel, to.rel);
      request(from.m, OP.RENAME, { path: from.rel, path2: to.rel });
    },
  };

  // Errors other than a WASI errno: the mount's, or a host call's outside the backend (never a trap)
  const otherError = (err) => {
    if (err instanceof HandleError) return errnoFromLinux(err.errno);
    return err instanceof RangeError ? ERRNO.FAULT : err?.code === 'ENOENT' ? ERRNO.NOENT : ERRNO.IO;
  };
  // Stdio and fds not in the table go to base for these calls; the calls the backend lacks too.
  const passOn = { calls: BASE_FIRST, owns: (fd) => slotOf(fd) >= 0, to: base };
  const served = fileCalls(backend, memory, { fallback: base, passOn, otherError });
  return new Proxy(base, { get: (target, name) => served[name] ?? target[name] });
}
