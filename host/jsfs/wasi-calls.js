// WASI preview1 file calls (fd_* and path_*) served by the JS filesystem (fs.js), the host half
// of `spindle cc --fs=js`. The layouts and rules mirror runtime/wasi, so a program sees the same
// results with either filesystem: "/" preopened as fd 3, Linux errno mapped to WASI numbers,
// rights reported as granted except that read/write follow the access mode (wasi-libc derives
// fcntl(F_GETFL) from them), pointers checked against the memory size (EFAULT).
// fds 0-2 are the host's stdio and go to `stdio` (host/wasi/imports.js).
import { AT, ERRNO as E, O, UTIME } from '../abi/linux.js';
import {
  DIRENT, ERRNO as W, FDFLAGS, FDSTAT, FILESTAT, FILETYPE, FSTFLAGS, IOVEC, LOOKUPFLAGS, OFLAGS, PREOPENTYPE, PRESTAT,
  RIGHTS,
} from '../abi/wasi.js';
import { errnoFromLinux } from '../abi/wasi-translate.js';
import { TYPE } from './fs.js';

const toWasi = (rc) => errnoFromLinux(-rc);
const FILETYPE_OF = { [TYPE.DIR]: FILETYPE.DIRECTORY, [TYPE.FILE]: FILETYPE.REGULAR_FILE, [TYPE.SYMLINK]: FILETYPE.SYMBOLIC_LINK };
const PATH_MAX = 4096;
const MAX_IOVS = 1024;
const FIRST_OWN_FD = 3;

/** The names of the WASI calls this module serves, with which of their parameters are i64. */
export const FILE_CALLS = {
  fd_advise: [1, 2], fd_allocate: [1, 2], fd_close: [], fd_datasync: [], fd_fdstat_get: [],
  fd_fdstat_set_flags: [], fd_fdstat_set_rights: [1, 2], fd_filestat_get: [],
  fd_filestat_set_size: [1], fd_filestat_set_times: [1, 2], fd_pread: [3], fd_prestat_get: [],
  fd_prestat_dir_name: [], fd_pwrite: [3], fd_read: [], fd_readdir: [3], fd_renumber: [],
  fd_seek: [1], fd_sync: [], fd_tell: [], fd_write: [], path_create_directory: [],
  path_filestat_get: [], path_filestat_set_times: [4, 5], path_link: [], path_open: [5, 6],
  path_readlink: [], path_remove_directory: [], path_rename: [], path_symlink: [],
  path_unlink_file: [],
};

/** Calls whose first argument is an fd that may be stdio (answered by the thread itself). */
export function isStdioCall(name, args) {
  return name.startsWith('fd_') && name !== 'fd_prestat_get' && name !== 'fd_prestat_dir_name' &&
    name !== 'fd_renumber' && args[0] >= 0 && args[0] < FIRST_OWN_FD;
}

/**
 * @param {JsFs} fs           the filesystem (host main thread only)
 * @param {WebAssembly.Memory} memory
 * @param {object} stdio      the host's WASI functions for fds 0-2
 */
export function fileCalls(fs, memory, stdio) {
  let buffer = null; let u8; let dv;
  const mem = () => {
    if (memory.buffer !== buffer) { // new views after memory.grow
      buffer = memory.buffer;
      u8 = new Uint8Array(buffer);
      dv = new DataView(buffer);
    }
  };
  const inBounds = (ptr, len) => ptr >= 0 && len >= 0 && ptr + len <= buffer.byteLength;
  let preopen = FIRST_OWN_FD;
  const root = fs.openat(AT.FDCWD, '/', O.RDONLY | O.DIRECTORY, 0);
  if (root !== preopen) throw new Error('JS FS: could not preopen / as fd 3');

  /** Reads a path argument: a byte string, or a WASI errno (number). */
  function path(ptr, len) {
    if (!inBounds(ptr, len)) return W.FAULT;
    if (len >= PATH_MAX) return W.NAMETOOLONG;
    let s = '';
    for (let i = 0; i < len; i++) {
      const b = u8[ptr + i];
      if (b === 0) return W.INVAL; // an embedded NUL cannot name anything
      s += String.fromCharCode(b);
    }
    return s;
  }

  function iovecs(iovs, count) {
    if (count > MAX_IOVS) return W.INVAL;
    if (!inBounds(iovs, count * IOVEC.BYTES)) return W.FAULT;
    const list = [];
    for (let i = 0; i < count; i++) {
      const ptr = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.BUF, true);
      const len = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.LEN, true);
      if (!inBounds(ptr, len)) return W.FAULT;
      list.push([u8, ptr, len]);
    }
    return list;
  }

  function putU32(ptr, value) {
    dv.setUint32(ptr, value, true);
    return W.SUCCESS;
  }

  function transfer(fd, iovs, count, retptr, fn) {
    mem();
    const list = iovecs(iovs, count);
    if (typeof list === 'number') return list;
    if (!inBounds(retptr, 4)) return W.FAULT;
    const n = fn(list);
    return n < 0 ? toWasi(n) : putU32(retptr, n);
  }

  function fillFilestat(ptr, st) {
    u8.fill(0, ptr, ptr + FILESTAT.BYTES);
    dv.setBigUint64(ptr + FILESTAT.DEV, BigInt(st.dev), true);
    dv.setBigUint64(ptr + FILESTAT.INO, BigInt(st.ino), true);
    dv.setUint8(ptr + FILESTAT.FILETYPE, FILETYPE_OF[st.type] ?? FILETYPE.UNKNOWN);
    dv.setBigUint64(ptr + FILESTAT.NLINK, BigInt(st.nlink), true);
    dv.setBigUint64(ptr + FILESTAT.SIZE, BigInt(st.size), true);
    dv.setBigUint64(ptr + FILESTAT.ATIM, BigInt.asUintN(64, st.atime), true);
    dv.setBigUint64(ptr + FILESTAT.MTIM, BigInt.asUintN(64, st.mtime), true);
    dv.setBigUint64(ptr + FILESTAT.CTIM, BigInt.asUintN(64, st.ctime), true);
    return W.SUCCESS;
  }

  /** WASI fstflags -> [[sec, nsec], [sec, nsec]] for JsFs.setTimes, or a WASI errno. */
  function timesFromFlags(atim, mtim, flags) {
    if ((flags & FSTFLAGS.ATIM) && (flags & FSTFLAGS.ATIM_NOW)) return W.INVAL;
    if ((flags & FSTFLAGS.MTIM) && (flags & FSTFLAGS.MTIM_NOW)) return W.INVAL;
    const one = (value, set, now) => {
      if (flags & now) return [0n, UTIME.NOW];
      if (!(flags & set)) return [0n, UTIME.OMIT];
      const ns = BigInt.asUintN(64, value); // WASI timestamps are unsigned ns since the epoch
      return [ns / 1000000000n, Number(ns % 1000000000n)];
    };
    return [one(atim, FSTFLAGS.ATIM, FSTFLAGS.ATIM_NOW), one(mtim, FSTFLAGS.MTIM, FSTFLAGS.MTIM_NOW)];
  }

  const result = (rc) => (rc < 0 ? toWasi(rc) : W.SUCCESS);
  // fds are unsigned: a negative one is one of ours (so EBADF), never the host's stdio
  const own = (fd) => (fd >>> 0) >= FIRST_OWN_FD;

  const calls = {
    fd_read: (fd, iovs, count, retptr) => (own(fd) ? transfer(fd, iovs, count, retptr, (l) => fs.readv(fd, l))
      : stdio.fd_read(fd, iovs, count, retptr)),
    fd_write: (fd, iovs, count, retptr) => (own(fd) ? transfer(fd, iovs, count, retptr, (l) => fs.writev(fd, l))
      : stdio.fd_write(fd, iovs, count, retptr)),
    fd_pread(fd, iovs, count, offset, retptr) {
      if (!own(fd)) return stdio.fd_pread(fd, iovs, count, offset, retptr);
      return transfer(fd, iovs, count, retptr, (l) => {
        if (!fs.file(fd)) return -E.EBADF;
        return offset < 0n ? -E.EINVAL : fs.readv(fd, l, Number(offset));
      });
    },
    fd_pwrite(fd, iovs, count, offset, retptr) {
      if (!own(fd)) return stdio.fd_pwrite(fd, iovs, count, offset, retptr);
      return transfer(fd, iovs, count, retptr, (l) => {
        if (!fs.file(fd)) return -E.EBADF;
        return offset < 0n ? -E.EINVAL : fs.writev(fd, l, Number(offset));
      });
    },
    fd_seek(fd, offset, whence, retptr) {
      if (!own(fd)) return stdio.fd_seek(fd, offset, whence, retptr);
      mem();
      if (!inBounds(retptr, 8)) return W.FAULT;
      const pos = fs.lseek(fd, Number(offset), whence);
      if (pos < 0) return toWasi(pos);
      dv.setBigUint64(retptr, BigInt(pos), true);
      return W.SUCCESS;
    },
    fd_tell: (fd, retptr) => (own(fd) ? calls.fd_seek(fd, 0n, 1, retptr) : stdio.fd_tell(fd, retptr)),
    fd_close(fd) {
      if (!own(fd)) return stdio.fd_close(fd);
      const rc = fs.close(fd);
      if (rc === 0 && fd === preopen) preopen = -1;
      return result(rc);
    },
    fd_sync: (fd) => (own(fd) ? result(fs.fsync(fd)) : stdio.fd_sync(fd)),
    fd_datasync: (fd) => (own(fd) ? result(fs.fsync(fd)) : stdio.fd_datasync(fd)),
    fd_advise(fd, offset, len, advice) {
      if (!own(fd)) return stdio.fd_advise(fd, offset, len, advice);
      if (advice < 0 || advice > 5 || offset < 0n || len < 0n) return fs.file(fd) ? W.INVAL : W.BADF;
      return result(fs.fsync(fd)); // advice changes nothing in memory; the fd must exist
    },
    fd_allocate: (fd, offset, len) => (own(fd) ? result(fs.fallocate(fd, Number(offset), Number(len)))
      : stdio.fd_allocate(fd, offset, len)),
    fd_fdstat_get(fd, retptr) {
      if (!own(fd)) return stdio.fd_fdstat_get(fd, retptr);
      mem();
      if (!inBounds(retptr, FDSTAT.BYTES)) return W.FAULT;
      const flags = fs.getfl(fd);
      if (flags < 0) return toWasi(flags);
      const st = fs.fstat(fd);
      let fdflags = 0;
      if (flags & O.APPEND) fdflags |= FDFLAGS.APPEND;
      if (flags & O.NONBLOCK) fdflags |= FDFLAGS.NONBLOCK;
      if ((flags & O.SYNC) === O.SYNC) fdflags |= FDFLAGS.SYNC;
      else if (flags & O.DSYNC) fdflags |= FDFLAGS.DSYNC;
      let rights = RIGHTS.ALL;
      const access = flags & O.ACCMODE;
      if (access === O.WRONLY) rights &= ~(RIGHTS.FD_READ | RIGHTS.FD_READDIR);
      if (access === O.RDONLY) rights &= ~RIGHTS.FD_WRITE;
      u8.fill(0, retptr, retptr + FDSTAT.BYTES);
      dv.setUint8(retptr + FDSTAT.FILETYPE, FILETYPE_OF[st.type] ?? FILETYPE.UNKNOWN);
      dv.setUint16(retptr + FDSTAT.FLAGS, fdflags, true);
      dv.setBigUint64(retptr + FDSTAT.RIGHTS_BASE, rights, true);
      dv.setBigUint64(retptr + FDSTAT.RIGHTS_INHERITING, RIGHTS.ALL, true);
      return W.SUCCESS;
    },
    fd_fdstat_set_flags(fd, flags) {
      if (!own(fd)) return stdio.fd_fdstat_set_flags(fd, flags);
      let linux = 0;
      if (flags & FDFLAGS.APPEND) linux |= O.APPEND;
      if (flags & FDFLAGS.NONBLOCK) linux |= O.NONBLOCK;
      return result(fs.setfl(fd, linux));
    },
    // rights are not enforced: accept any reduction on a valid fd
    fd_fdstat_set_rights: (fd, base, inheriting) => (own(fd) ? result(fs.fsync(fd))
      : stdio.fd_fdstat_set_rights(fd, base, inheriting)),
    fd_filestat_get(fd, retptr) {
      if (!own(fd)) return stdio.fd_filestat_get(fd, retptr);
      mem();
      if (!inBounds(retptr, FILESTAT.BYTES)) return W.FAULT;
      const st = fs.fstat(fd);
      return typeof st === 'number' ? toWasi(st) : fillFilestat(retptr, st);
    },
    fd_filestat_set_size: (fd, size) => (own(fd) ? result(fs.ftruncate(fd, Number(size)))
      : stdio.fd_filestat_set_size(fd, size)),
    fd_filestat_set_times(fd, atim, mtim, flags) {
      if (!own(fd)) return stdio.fd_filestat_set_times(fd, atim, mtim, flags);
      if (!fs.file(fd)) return W.BADF;
      const times = timesFromFlags(atim, mtim, flags);
      return typeof times === 'number' ? times : result(fs.futimens(fd, times));
    },
    fd_readdir(fd, buf, bufLen, cookie, retptr) {
      if (!own(fd)) return stdio.fd_readdir(fd, buf, bufLen, cookie, retptr);
      mem();
      if (!inBounds(buf, bufLen) || !inBounds(retptr, 4)) return W.FAULT;
      // Entries are packed as a header + name; the last one may be cut off at the end of the
      // buffer, which tells wasi-libc to retry with a bigger one.
      const header = new Uint8Array(DIRENT.BYTES);
      const hv = new DataView(header.buffer);
      let used = 0;
      let next = Number(BigInt.asUintN(64, cookie));
      while (used < bufLen) {
        const batch = fs.readdir(fd, next, 64);
        if (typeof batch === 'number') return toWasi(batch);
        if (batch.length === 0) break;
        for (const e of batch) {
          if (used >= bufLen) break;
          hv.setBigUint64(DIRENT.NEXT, BigInt(e.next), true);
          hv.setBigUint64(DIRENT.INO, BigInt(e.ino), true);
          hv.setUint32(DIRENT.NAMLEN, e.name.length, true);
          hv.setUint8(DIRENT.TYPE, FILETYPE_OF[e.type] ?? FILETYPE.UNKNOWN);
          let take = Math.min(DIRENT.BYTES, bufLen - used);
          u8.set(header.subarray(0, take), buf + used);
          used += take;
          take = Math.min(e.name.length, bufLen - used);
          for (let i = 0; i < take; i++) u8[buf + used + i] = e.name.charCodeAt(i);
          used += take;
          next = e.next;
        }
      }
      return putU32(retptr, used);
    },
    fd_renumber(from, to) {
      if (!own(from) && !own(to)) return stdio.fd_renumber(from, to);
      if (!own(from) || !own(to)) return W.NOTSUP; // stdio and files live in different tables
      const rc = fs.dup2(from, to);
      if (rc < 0) return toWasi(rc);
      if (to === preopen) preopen = -1;
      if (from !== to) {
        fs.close(from);
        if (from === preopen) preopen = -1;
      }
      return W.SUCCESS;
    },
    fd_prestat_get(fd, retptr) {
      mem();
      if (!inBounds(retptr, PRESTAT.BYTES)) return W.FAULT;
      if (fd !== preopen) return W.BADF; // also ends wasi-libc's preopen scan
      dv.setUint32(retptr + PRESTAT.TAG, PREOPENTYPE.DIR, true);
      dv.setUint32(retptr + PRESTAT.DIR_NAME_LEN, 1, true); // name length of "/"
      return W.SUCCESS;
    },
    fd_prestat_dir_name(fd, ptr, len) {
      mem();
      if (!inBounds(ptr, len)) return W.FAULT;
      if (fd !== preopen) return W.BADF;
      if (len < 1) return W.NAMETOOLONG;
      u8[ptr] = 47;
      return W.SUCCESS;
    },

    path_open(dirfd, lookup, pathPtr, pathLen, oflags, rightsBase, _rightsInheriting, fdflags, retptr) {
      mem();
      const p = path(pathPtr, pathLen);
      if (typeof p === 'number') return p;
      if (!inBounds(retptr, 4)) return W.FAULT;
      // wasi-libc turns O_RDONLY/O_WRONLY/O_RDWR into the read/write rights
      const readable = (BigInt.asUintN(64, rightsBase) & RIGHTS.FD_READ) !== 0n;
      const writable = (BigInt.asUintN(64, rightsBase) & RIGHTS.FD_WRITE) !== 0n;
      let flags = writable ? (readable ? O.RDWR : O.WRONLY) : O.RDONLY;
      if (oflags & OFLAGS.CREAT) flags |= O.CREAT;
      if (oflags & OFLAGS.DIRECTORY) flags |= O.DIRECTORY;
      if (oflags & OFLAGS.EXCL) flags |= O.EXCL;
      if (oflags & OFLAGS.TRUNC) flags |= O.TRUNC;
      if (fdflags & FDFLAGS.APPEND) flags |= O.APPEND;
      if (fdflags & FDFLAGS.NONBLOCK) flags |= O.NONBLOCK;
      if (fdflags & (FDFLAGS.SYNC | FDFLAGS.RSYNC)) flags |= O.SYNC;
      else if (fdflags & FDFLAGS.DSYNC) flags |= O.DSYNC;
      if (!(lookup & LOOKUPFLAGS.SYMLINK_FOLLOW)) flags |= O.NOFOLLOW;
      const fd = fs.openat(dirfd, p, flags, 0o644);
      return fd < 0 ? toWasi(fd) : putU32(retptr, fd);
    },
    path_create_directory(dirfd, pathPtr, pathLen) {
      mem();
      const p = path(pathPtr, pathLen);
      return typeof p === 'number' ? p : result(fs.mkdirat(dirfd, p, 0o755));
    },
    path_remove_directory(dirfd, pathPtr, pathLen) {
      mem();
      const p = path(pathPtr, pathLen);
      return typeof p === 'number' ? p : result(fs.unlinkat(dirfd, p, AT.REMOVEDIR));
    },
    path_unlink_file(dirfd, pathPtr, pathLen) {
      mem();
      const p = path(pathPtr, pathLen);
      return typeof p === 'number' ? p : result(fs.unlinkat(dirfd, p, 0));
    },
    path_filestat_get(dirfd, lookup, pathPtr, pathLen, retptr) {
      mem();
      const p = path(pathPtr, pathLen);
      if (typeof p === 'number') return p;
      if (!inBounds(retptr, FILESTAT.BYTES)) return W.FAULT;
      const st = fs.fstatat(dirfd, p, (lookup & LOOKUPFLAGS.SYMLINK_FOLLOW) ? 0 : AT.SYMLINK_NOFOLLOW);
      return typeof st === 'number' ? toWasi(st) : fillFilestat(retptr, st);
    },
    path_filestat_set_times(dirfd, lookup, pathPtr, pathLen, atim, mtim, flags) {
      mem();
      const p = path(pathPtr, pathLen);
      if (typeof p === 'number') return p;
      const times = timesFromFlags(atim, mtim, flags);
      if (typeof times === 'number') return times;
      return result(fs.utimensat(dirfd, p, times, (lookup & LOOKUPFLAGS.SYMLINK_FOLLOW) ? 0 : AT.SYMLINK_NOFOLLOW));
    },
    path_link(oldfd, oldLookup, oldPtr, oldLen, newfd, newPtr, newLen) {
      mem();
      const from = path(oldPtr, oldLen);
      if (typeof from === 'number') return from;
      const to = path(newPtr, newLen);
      if (typeof to === 'number') return to;
      return result(fs.linkat(oldfd, from, newfd, to, (oldLookup & LOOKUPFLAGS.SYMLINK_FOLLOW) ? AT.SYMLINK_FOLLOW : 0));
    },
    path_rename(oldfd, oldPtr, oldLen, newfd, newPtr, newLen) {
      mem();
      const from = path(oldPtr, oldLen);
      if (typeof from === 'number') return from;
      const to = path(newPtr, newLen);
      if (typeof to === 'number') return to;
      return result(fs.renameat(oldfd, from, newfd, to));
    },
    path_symlink(targetPtr, targetLen, dirfd, pathPtr, pathLen) {
      mem();
      const target = path(targetPtr, targetLen);
      if (typeof target === 'number') return target;
      const p = path(pathPtr, pathLen);
      if (typeof p === 'number') return p;
      return result(fs.symlinkat(target, dirfd, p));
    },
    path_readlink(dirfd, pathPtr, pathLen, buf, bufLen, retptr) {
      mem();
      const p = path(pathPtr, pathLen);
      if (typeof p === 'number') return p;
      if (!inBounds(buf, bufLen) || !inBounds(retptr, 4)) return W.FAULT;
      const target = fs.readlinkat(dirfd, p, bufLen);
      if (typeof target === 'number') return toWasi(target);
      for (let i = 0; i < target.length; i++) u8[buf + i] = target.charCodeAt(i);
      return putU32(retptr, target.length);
    },
  };
  return calls;
}
