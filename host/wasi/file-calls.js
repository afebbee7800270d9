// WASI preview1's file calls (fd_* and path_*), written once over a small backend: this file reads
// the module's arguments (paths, iovecs, i64s), translates WASI flags to Linux ones and back, and
// writes the results in WASI's layouts through guest-memory.js (every pointer checked: EFAULT,
// never a trap). The backend keeps the fds and does the work, answering in Linux terms (status
// flags, S_IF modes, DT_ types) or throwing a WASI errno with `fail`. Backends: host/wasi/preopens.js
// (host directories, fd table shared by threads) and host/jsfs/wasi-calls.js (the JS FS of --fs=js).
//
// A call whose operation the backend lacks goes to `fallback` (ENOSYS by default). Calls named in
// `passOn.calls` whose fd the backend does not own go to `passOn.to` (stdio, say).
import { ERRNO, FDSTAT, FILESTAT, OFLAGS, PRESTAT, RIGHTS } from '../abi/wasi.js';
import {
  accessFromRights, fdflagsFromStatusFlags, filetypeOfDt, filetypeOfMode, followFromLookup, noFollowFromLookup,
  openFlagsFromOflags, rightsFromAccess, statusFlagsFromFdflags, utimensFromFstflags,
} from '../abi/wasi-translate.js';
import { fail, guestMemory, sameArity, wasiCall } from './guest-memory.js';

/** The file calls, each with which of its parameters are i64 (host/jsfs/proxy.js carries them). */
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

// The backend operation each call needs (a backend without it: the call goes to the fallback).
const NEEDS = {
  fd_advise: 'advise', fd_allocate: 'allocate', fd_close: 'close', fd_datasync: 'datasync',
  fd_fdstat_get: 'fdstat', fd_fdstat_set_flags: 'setFlags', fd_fdstat_set_rights: 'setRights',
  fd_filestat_get: 'fstat', fd_filestat_set_size: 'truncate', fd_filestat_set_times: 'setTimes',
  fd_pread: 'preadv', fd_prestat_get: 'prestat', fd_prestat_dir_name: 'prestat', fd_pwrite: 'pwritev',
  fd_read: 'readv', fd_readdir: 'readdir', fd_renumber: 'renumber', fd_seek: 'seek', fd_sync: 'sync',
  fd_tell: 'seek', fd_write: 'writev', path_create_directory: 'mkdir', path_filestat_get: 'stat',
  path_filestat_set_times: 'setTimesAt', path_link: 'link', path_open: 'open', path_readlink: 'readlink',
  path_remove_directory: 'rmdir', path_rename: 'rename', path_symlink: 'symlink', path_unlink_file: 'unlink',
};

// A backend's stat ({ dev, ino, mode, nlink, size, atim, mtim, ctim }) as WASI's filestat.
const filestat = (st) => ({ dev: st.dev, ino: st.ino, filetype: filetypeOfMode(st.mode), nlink: st.nlink,
  size: st.size, atim: st.atim, mtim: st.mtim, ctim: st.ctim });

const ENOSYS = new Proxy({}, { get: () => () => ERRNO.NOSYS });

/**
 * backend: the operations (any may be missing):
 *   readv/writev(fd, [[ptr, len]...]) and preadv/pwritev(fd, list, offset) -> bytes moved;
 *   seek(fd, offset, whence) and tell?(fd) -> position; close, sync, datasync, advise(fd, offset,
 *   len, advice), allocate(fd, offset, len), truncate(fd, size), renumber(from, to) -> errno or nothing;
 *   fdstat(fd) -> { mode, flags (Linux status and access), rights? (default: by access mode) };
 *   setFlags(fd, Linux status flags), setRights(fd, base, inheriting), fstat(fd) -> stat,
 *   setTimes(fd, utimens), fd?(fd) (throws EBADF: checked before the times are judged);
 *   readdir(fd, cookie) -> iterable of { next, ino, name: bytes, mode or dt } (read only while the
 *   buffer has room); prestat(fd) -> the preopen's name bytes;
 *   open(dirfd, path bytes, Linux flags) -> fd; stat(dirfd, path, AT_ flags) -> stat;
 *   setTimesAt(dirfd, path, utimens, AT_ flags), mkdir, rmdir, unlink(dirfd, path),
 *   rename/link(oldfd, old, newfd, new[, AT_ flags]), symlink(target, dirfd, path),
 *   readlink(dirfd, path, room) -> bytes; truncWrites: path_open's O_TRUNC asks for writing too.
 * options: fallback (calls the backend lacks), passOn { calls (a Set), owns(fd), to }, otherError (for wasiCall).
 */
export function fileCalls(backend, memory, { fallback = ENOSYS, passOn = null, otherError = null } = {}) {
  const mem = guestMemory(memory);
  const times = (atim, mtim, flags) => utimensFromFstflags(atim, mtim, flags) ?? fail(ERRNO.INVAL);
  const seek = (fd, offset, whence, retptr) => {
    mem.check(retptr, 8);
    mem.putU64(retptr, backend.seek(fd, offset, whence));
  };

  const all = {
    fd_read(fd, iovs, count, retptr) {
      const list = mem.iovecs(iovs, count);
      mem.check(retptr, 4);
      mem.putU32(retptr, backend.readv(fd, list));
    },
    fd_write(fd, iovs, count, retptr) {
      const list = mem.iovecs(iovs, count);
      mem.check(retptr, 4);
      mem.putU32(retptr, backend.writev(fd, list));
    },
    fd_pread(fd, iovs, count, offset, retptr) {
      const list = mem.iovecs(iovs, count);
      mem.check(retptr, 4);
      mem.putU32(retptr, backend.preadv(fd, list, offset));
    },
    fd_pwrite(fd, iovs, count, offset, retptr) {
      const list = mem.iovecs(iovs, count);
      mem.check(retptr, 4);
      mem.putU32(retptr, backend.pwritev(fd, list, offset));
    },
    fd_seek: seek,
    fd_tell(fd, retptr) {
      if (!backend.tell) return seek(fd, 0n, 1, retptr);
      mem.check(retptr, 8);
      mem.putU64(retptr, backend.tell(fd));
    },
    fd_close: (fd) => backend.close(fd),
    fd_sync: (fd) => backend.sync(fd),
    fd_datasync: (fd) => backend.datasync(fd),
    fd_advise: (fd, offset, len, advice) => backend.advise(fd, offset, len, advice),
    fd_allocate: (fd, offset, len) => backend.allocate(fd, offset, len),
    fd_renumber: (from, to) => backend.renumber(from, to),
    fd_fdstat_get(fd, retptr) {
      mem.check(retptr, FDSTAT.BYTES);
      const st = backend.fdstat(fd);
      mem.putFdstat(retptr, { filetype: filetypeOfMode(st.mode), fdflags: fdflagsFromStatusFlags(st.flags),
        rightsBase: st.rights ?? rightsFromAccess(st.flags), rightsInheriting: RIGHTS.ALL });
    },
    fd_fdstat_set_flags: (fd, fdflags) => backend.setFlags(fd, statusFlagsFromFdflags(fdflags)),
    fd_fdstat_set_rights: (fd, base, inheriting) => backend.setRights(fd, base, inheriting),
    fd_filestat_get(fd, retptr) {
      mem.check(retptr, FILESTAT.BYTES);
      mem.putFilestat(retptr, filestat(backend.fstat(fd)));
    },
    fd_filestat_set_size: (fd, size) => backend.truncate(fd, size),
    fd_filestat_set_times(fd, atim, mtim, flags) {
      backend.fd?.(fd);
      backend.setTimes(fd, times(atim, mtim, flags));
    },
    fd_readdir(fd, buf, bufLen, cookie, retptr) {
      const out = mem.direntWriter(buf, bufLen);
      mem.check(retptr, 4);
      const entries = backend.readdir(fd, cookie);
      if (bufLen > 0) {
        for (const e of entries) {
          const filetype = e.dt === undefined ? filetypeOfMode(e.mode) : filetypeOfDt(e.dt);
          if (!out.add({ next: e.next, ino: e.ino, filetype, name: e.name })) break;
        }
      }
      mem.putU32(retptr, out.used);
    },
    fd_prestat_get(fd, retptr) {
      mem.check(retptr, PRESTAT.BYTES);
      mem.putPrestat(retptr, backend.prestat(fd).length);
    },
    fd_prestat_dir_name(fd, ptr, len) {
      mem.check(ptr, len);
      mem.putPrestatName(ptr, len, backend.prestat(fd));
    },

    path_open(dirfd, lookup, pathPtr, pathLen, oflags, rightsBase, _rightsInheriting, fdflags, retptr) {
      const path = mem.path(pathPtr, pathLen);
      mem.check(retptr, 4);
      const rights = backend.truncWrites && oflags & OFLAGS.TRUNC ? rightsBase | RIGHTS.FD_WRITE : rightsBase;
      const flags = accessFromRights(rights) | openFlagsFromOflags(oflags, lookup) | statusFlagsFromFdflags(fdflags);
      mem.putU32(retptr, backend.open(dirfd, path, flags));
    },
    path_create_directory: (dirfd, pathPtr, pathLen) => backend.mkdir(dirfd, mem.path(pathPtr, pathLen)),
    path_remove_directory: (dirfd, pathPtr, pathLen) => backend.rmdir(dirfd, mem.path(pathPtr, pathLen)),
    path_unlink_file: (dirfd, pathPtr, pathLen) => backend.unlink(dirfd, mem.path(pathPtr, pathLen)),
    path_filestat_get(dirfd, lookup, pathPtr, pathLen, retptr) {
      const path = mem.path(pathPtr, pathLen);
      mem.check(retptr, FILESTAT.BYTES);
      mem.putFilestat(retptr, filestat(backend.stat(dirfd, path, noFollowFromLookup(lookup))));
    },
    path_filestat_set_times(dirfd, lookup, pathPtr, pathLen, atim, mtim, flags) {
      const path = mem.path(pathPtr, pathLen);
      backend.setTimesAt(dirfd, path, times(atim, mtim, flags), noFollowFromLookup(lookup));
    },
    path_link(oldfd, oldLookup, oldPtr, oldLen, newfd, newPtr, newLen) {
      const from = mem.path(oldPtr, oldLen);
      backend.link(oldfd, from, newfd, mem.path(newPtr, newLen), followFromLookup(oldLookup));
    },
    path_rename(oldfd, oldPtr, oldLen, newfd, newPtr, newLen) {
      const from = mem.path(oldPtr, oldLen);
      backend.rename(oldfd, from, newfd, mem.path(newPtr, newLen));
    },
    path_symlink(targetPtr, targetLen, dirfd, pathPtr, pathLen) {
      const target = mem.path(targetPtr, targetLen);
      backend.symlink(target, dirfd, mem.path(pathPtr, pathLen));
    },
    path_readlink(dirfd, pathPtr, pathLen, buf, bufLen, retptr) {
      const path = mem.path(pathPtr, pathLen);
      mem.check(buf, bufLen);
      mem.check(retptr, 4);
      const target = backend.readlink(dirfd, path, bufLen);
      mem.bytes().set(target, buf);
      mem.putU32(retptr, target.length);
    },
  };

  const calls = {};
  for (const [name, fn] of Object.entries(all)) {
    if (!backend[NEEDS[name]]) {
      calls[name] = sameArity(fn, (...args) => fallback[name](...args));
      continue;
    }
    const call = wasiCall(fn, otherError);
    calls[name] = passOn?.calls.has(name)
      ? sameArity(fn, (fd, ...rest) => (passOn.owns(fd) ? call(fd, ...rest) : passOn.to[name](fd, ...rest)))
      : call;
  }
  return calls;
}
