// WASI preview1 file calls (fd_* and path_*) served by the JS filesystem (fs.js), the host half
// of `spindle cc --fs=js`. The layouts and rules mirror runtime/wasi, so a program sees the same
// results with either filesystem: "/" preopened as fd 3, Linux errno mapped to WASI numbers,
// rights reported as granted except that read/write follow the access mode (wasi-libc derives
// fcntl(F_GETFL) from them), pointers checked against the memory size (EFAULT).
// fds 0-2 are the host's stdio and go to `stdio` (host/wasi/imports.js).
import { AT, ERRNO as E, O } from '../abi/linux.js';
import { ERRNO as W, FDSTAT, FILESTAT, PRESTAT, RIGHTS } from '../abi/wasi.js';
import {
  accessFromRights, errnoFromLinux, fdflagsFromStatusFlags, filetypeOfMode, followFromLookup, noFollowFromLookup,
  openFlagsFromOflags, rightsFromAccess, statusFlagsFromFdflags, utimensFromFstflags,
} from '../abi/wasi-translate.js';
import { fail, guestMemory, sameArity, wasiCall } from '../wasi/guest-memory.js';

const FIRST_OWN_FD = 3;
const ROOT_NAME = new Uint8Array([0x2f]); // "/"

// The JS FS's paths and names are byte strings, one char per byte.
const byteString = (bytes) => String.fromCharCode(...bytes);
const stringBytes = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

// A JS FS answer: the value, or its negative Linux errno thrown as the WASI one.
const answer = (rc) => (typeof rc === 'number' && rc < 0 ? fail(errnoFromLinux(-rc)) : rc);

// The JS FS's stat ({ type: S_IF* bits, ... }) as the shared layer's filestat.
const filestat = (st) => ({ dev: st.dev, ino: st.ino, filetype: filetypeOfMode(st.type), nlink: st.nlink,
  size: st.size, atim: st.atime, mtim: st.mtime, ctim: st.ctime });

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
  const mem = guestMemory(memory);
  let preopen = FIRST_OWN_FD;
  const root = fs.openat(AT.FDCWD, '/', O.RDONLY | O.DIRECTORY, 0);
  if (root !== preopen) throw new Error('JS FS: could not preopen / as fd 3');

  const path = (ptr, len) => byteString(mem.path(ptr, len));

  // Reads or writes through the iovecs (fn: the JS FS's readv or writev over them); the count at retptr.
  function transfer(iovs, count, retptr, fn) {
    const list = mem.iovecs(iovs, count).map(([ptr, len]) => [mem.bytes(), ptr, len]);
    mem.check(retptr, 4);
    mem.putU32(retptr, answer(fn(list)));
  }

  const times = (atim, mtim, flags) => utimensFromFstflags(atim, mtim, flags) ?? fail(W.INVAL);
  // fds are unsigned: a negative one is one of ours (so EBADF), never the host's stdio
  const own = (fd) => (fd >>> 0) >= FIRST_OWN_FD;
  // each call: fds 0-2 to the host's stdio, the others to the JS FS
  const ownOrStdio = (name, fn) => {
    const call = wasiCall(fn);
    return sameArity(fn, (fd, ...rest) => (own(fd) ? call(fd, ...rest) : stdio[name](fd, ...rest)));
  };

  const fdCalls = {
    fd_read: (fd, iovs, count, retptr) => transfer(iovs, count, retptr, (l) => fs.readv(fd, l)),
    fd_write: (fd, iovs, count, retptr) => transfer(iovs, count, retptr, (l) => fs.writev(fd, l)),
    fd_pread: (fd, iovs, count, offset, retptr) => transfer(iovs, count, retptr, (l) => {
      if (!fs.file(fd)) return -E.EBADF;
      return offset < 0n ? -E.EINVAL : fs.readv(fd, l, Number(offset));
    }),
    fd_pwrite: (fd, iovs, count, offset, retptr) => transfer(iovs, count, retptr, (l) => {
      if (!fs.file(fd)) return -E.EBADF;
      return offset < 0n ? -E.EINVAL : fs.writev(fd, l, Number(offset));
    }),
    fd_seek(fd, offset, whence, retptr) {
      mem.check(retptr, 8);
      mem.putU64(retptr, answer(fs.lseek(fd, Number(offset), whence)));
    },
    fd_tell: (fd, retptr) => fdCalls.fd_seek(fd, 0n, 1, retptr),
    fd_close(fd) {
      answer(fs.close(fd));
      if (fd === preopen) preopen = -1;
    },
    fd_sync: (fd) => { answer(fs.fsync(fd)); },
    fd_datasync: (fd) => { answer(fs.fsync(fd)); },
    fd_advise(fd, offset, len, advice) {
      if (advice < 0 || advice > 5 || offset < 0n || len < 0n) return fs.file(fd) ? W.INVAL : W.BADF;
      answer(fs.fsync(fd)); // advice changes nothing in memory; the fd must exist
    },
    fd_allocate: (fd, offset, len) => { answer(fs.fallocate(fd, Number(offset), Number(len))); },
    fd_fdstat_get(fd, retptr) {
      mem.check(retptr, FDSTAT.BYTES);
      const flags = answer(fs.getfl(fd));
      mem.putFdstat(retptr, { filetype: filetypeOfMode(fs.fstat(fd).type), fdflags: fdflagsFromStatusFlags(flags),
        rightsBase: rightsFromAccess(flags), rightsInheriting: RIGHTS.ALL });
    },
    fd_fdstat_set_flags: (fd, flags) => { answer(fs.setfl(fd, statusFlagsFromFdflags(flags))); },
    // rights are not enforced: accept any reduction on a valid fd
    fd_fdstat_set_rights: (fd) => { answer(fs.fsync(fd)); },
    fd_filestat_get(fd, retptr) {
      mem.check(retptr, FILESTAT.BYTES);
      mem.putFilestat(retptr, filestat(answer(fs.fstat(fd))));
    },
    fd_filestat_set_size: (fd, size) => { answer(fs.ftruncate(fd, Number(size))); },
    fd_filestat_set_times(fd, atim, mtim, flags) {
      if (!fs.file(fd)) return W.BADF;
      answer(fs.futimens(fd, times(atim, mtim, flags)));
    },
    fd_readdir(fd, buf, bufLen, cookie, retptr) {
      const out = mem.direntWriter(buf, bufLen);
      mem.check(retptr, 4);
      let next = Number(BigInt.asUintN(64, cookie));
      for (let room = bufLen > 0; room;) {
        const batch = answer(fs.readdir(fd, next, 64));
        if (batch.length === 0) break;
        for (const e of batch) {
          room = out.add({ next: e.next, ino: e.ino, filetype: filetypeOfMode(e.type), name: stringBytes(e.name) });
          next = e.next;
          if (!room) break;
        }
      }
      mem.putU32(retptr, out.used);
    },
  };

  const calls = Object.fromEntries(Object.entries(fdCalls).map(([name, fn]) => [name, ownOrStdio(name, fn)]));
  Object.assign(calls, {
    fd_renumber: wasiCall((from, to) => {
      if (!own(from) && !own(to)) return stdio.fd_renumber(from, to);
      if (!own(from) || !own(to)) return W.NOTSUP; // stdio and files live in different tables
      answer(fs.dup2(from, to));
      if (to === preopen) preopen = -1;
      if (from !== to) {
        fs.close(from);
        if (from === preopen) preopen = -1;
      }
    }),
    fd_prestat_get: wasiCall((fd, retptr) => {
      mem.check(retptr, PRESTAT.BYTES);
      if (fd !== preopen) return W.BADF; // also ends wasi-libc's preopen scan
      mem.putPrestat(retptr, ROOT_NAME.length);
    }),
    fd_prestat_dir_name: wasiCall((fd, ptr, len) => {
      mem.check(ptr, len);
      if (fd !== preopen) return W.BADF;
      mem.putPrestatName(ptr, len, ROOT_NAME);
    }),

    path_open: wasiCall((dirfd, lookup, pathPtr, pathLen, oflags, rightsBase, _rightsInheriting, fdflags, retptr) => {
      const p = path(pathPtr, pathLen);
      mem.check(retptr, 4);
      const flags = accessFromRights(rightsBase) | openFlagsFromOflags(oflags, lookup) | statusFlagsFromFdflags(fdflags);
      mem.putU32(retptr, answer(fs.openat(dirfd, p, flags, 0o644)));
    }),
    path_create_directory: wasiCall((dirfd, pathPtr, pathLen) => {
      answer(fs.mkdirat(dirfd, path(pathPtr, pathLen), 0o755));
    }),
    path_remove_directory: wasiCall((dirfd, pathPtr, pathLen) => {
      answer(fs.unlinkat(dirfd, path(pathPtr, pathLen), AT.REMOVEDIR));
    }),
    path_unlink_file: wasiCall((dirfd, pathPtr, pathLen) => {
      answer(fs.unlinkat(dirfd, path(pathPtr, pathLen), 0));
    }),
    path_filestat_get: wasiCall((dirfd, lookup, pathPtr, pathLen, retptr) => {
      const p = path(pathPtr, pathLen);
      mem.check(retptr, FILESTAT.BYTES);
      mem.putFilestat(retptr, filestat(answer(fs.fstatat(dirfd, p, noFollowFromLookup(lookup)))));
    }),
    path_filestat_set_times: wasiCall((dirfd, lookup, pathPtr, pathLen, atim, mtim, flags) => {
      const p = path(pathPtr, pathLen);
      answer(fs.utimensat(dirfd, p, times(atim, mtim, flags), noFollowFromLookup(lookup)));
    }),
    path_link: wasiCall((oldfd, oldLookup, oldPtr, oldLen, newfd, newPtr, newLen) => {
      const from = path(oldPtr, oldLen);
      answer(fs.linkat(oldfd, from, newfd, path(newPtr, newLen), followFromLookup(oldLookup)));
    }),
    path_rename: wasiCall((oldfd, oldPtr, oldLen, newfd, newPtr, newLen) => {
      const from = path(oldPtr, oldLen);
      answer(fs.renameat(oldfd, from, newfd, path(newPtr, newLen)));
    }),
    path_symlink: wasiCall((targetPtr, targetLen, dirfd, pathPtr, pathLen) => {
      const target = path(targetPtr, targetLen);
      answer(fs.symlinkat(target, dirfd, path(pathPtr, pathLen)));
    }),
    path_readlink: wasiCall((dirfd, pathPtr, pathLen, buf, bufLen, retptr) => {
      const p = path(pathPtr, pathLen);
      mem.check(buf, bufLen);
      mem.check(retptr, 4);
      const target = stringBytes(answer(fs.readlinkat(dirfd, p, bufLen)));
      mem.bytes().set(target, buf);
      mem.putU32(retptr, target.length);
    }),
  });
  return calls;
}
