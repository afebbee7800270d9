// The JS filesystem (fs.js) as a backend of host/wasi/file-calls.js: WASI's fd_* and path_* calls
// for `spindle cc --fs=js`, run on the host's main thread. The answers mirror runtime/wasi, so a
// program sees the same results with either filesystem: "/" preopened as fd 3, rights reported
// as granted except that read/write follow the access mode (wasi-libc derives fcntl(F_GETFL)
// from them). fds 0-2 are the host's stdio and go to `stdio` (host/wasi/imports.js).
import { AT, O } from '../abi/linux.js';
import { ERRNO as W } from '../abi/wasi.js';
import { errnoFromLinux } from '../abi/wasi-translate.js';
import { fail, guestMemory } from '../wasi/guest-memory.js';
import { FILE_CALLS, fileCalls } from '../wasi/file-calls.js';

export { FILE_CALLS };

const FIRST_OWN_FD = 3;
const ROOT_NAME = new Uint8Array([0x2f]); // "/"

// The JS FS's paths and names are byte strings, one char per byte.
const byteString = (bytes) => String.fromCharCode(...bytes);
const stringBytes = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

// A JS FS answer: the value, or its negative Linux errno thrown as the WASI one.
const answer = (rc) => (typeof rc === 'number' && rc < 0 ? fail(errnoFromLinux(-rc)) : rc);

// The JS FS's stat ({ type: S_IF* bits, ... }) as the call layer's.
const stat = (st) => ({ dev: st.dev, ino: st.ino, mode: st.type, nlink: st.nlink, size: st.size,
  atim: st.atime, mtim: st.mtime, ctim: st.ctime });

// fds are unsigned: a negative one is one of ours (so EBADF), never the host's stdio
const own = (fd) => (fd >>> 0) >= FIRST_OWN_FD;

// fd calls on fds 0-2 the thread answers itself (the host's stdio); not the preopen's or renumber
const STDIO_CALLS = new Set(Object.keys(FILE_CALLS).filter((name) => name.startsWith('fd_') &&
  name !== 'fd_prestat_get' && name !== 'fd_prestat_dir_name' && name !== 'fd_renumber'));

/** Calls whose first argument is an fd that may be stdio (answered by the thread itself). */
export function isStdioCall(name, args) {
  return STDIO_CALLS.has(name) && args[0] >= 0 && args[0] < FIRST_OWN_FD;
}

/**
 * @param {JsFs} fs           the filesystem (host main thread only)
 * @param {WebAssembly.Memory} memory
 * @param {object} stdio      the host's WASI functions for fds 0-2
 */
export function jsFsFileCalls(fs, memory, stdio) {
  const mem = guestMemory(memory);
  let preopen = FIRST_OWN_FD;
  const root = fs.openat(AT.FDCWD, '/', O.RDONLY | O.DIRECTORY, 0);
  if (root !== preopen) throw new Error('JS FS: could not preopen / as fd 3');

  // the iovecs as the JS FS's readv/writev take them: [memory, ptr, len]
  const buffers = (list) => list.map(([ptr, len]) => [mem.bytes(), ptr, len]);
  const exists = (fd) => fs.file(fd) || fail(W.BADF);
  const closed = (fd) => { if (fd === preopen) preopen = -1; };

  const backend = {
    readv: (fd, list) => answer(fs.readv(fd, buffers(list))),
    writev: (fd, list) => answer(fs.writev(fd, buffers(list))),
    preadv(fd, list, offset) {
      exists(fd);
      return offset < 0n ? fail(W.INVAL) : answer(fs.readv(fd, buffers(list), Number(offset)));
    },
    pwritev(fd, list, offset) {
      exists(fd);
      return offset < 0n ? fail(W.INVAL) : answer(fs.writev(fd, buffers(list), Number(offset)));
    },
    seek: (fd, offset, whence) => answer(fs.lseek(fd, Number(offset), whence)),
    close(fd) {
      answer(fs.close(fd));
      closed(fd);
    },
    sync: (fd) => { answer(fs.fsync(fd)); },
    datasync: (fd) => { answer(fs.fsync(fd)); },
    advise(fd, offset, len, advice) {
      if (advice < 0 || advice > 5 || offset < 0n || len < 0n) return fs.file(fd) ? W.INVAL : W.BADF;
      answer(fs.fsync(fd)); // advice changes nothing in memory; the fd must exist
    },
    allocate: (fd, offset, len) => { answer(fs.fallocate(fd, Number(offset), Number(len))); },
    renumber(from, to) {
      if (!own(from) && !own(to)) return stdio.fd_renumber(from, to);
      if (!own(from) || !own(to)) return W.NOTSUP; // stdio and files live in different tables
      answer(fs.dup2(from, to));
      closed(to);
      if (from !== to) {
        fs.close(from);
        closed(from);
      }
    },
    fdstat(fd) {
      const flags = answer(fs.getfl(fd));
      return { mode: fs.fstat(fd).type, flags };
    },
    setFlags: (fd, flags) => { answer(fs.setfl(fd, flags)); },
    // rights are not enforced: accept any reduction on a valid fd
    setRights: (fd) => { answer(fs.fsync(fd)); },
    fstat: (fd) => stat(answer(fs.fstat(fd))),
    truncate: (fd, size) => { answer(fs.ftruncate(fd, Number(size))); },
    fd: exists,
    setTimes: (fd, utimens) => { answer(fs.futimens(fd, utimens)); },
    // read in batches, and only as far as the guest's buffer takes them
    * readdir(fd, cookie) {
      let next = Number(BigInt.asUintN(64, cookie));
      for (;;) {
        const batch = answer(fs.readdir(fd, next, 64));
        if (batch.length === 0) return;
        for (const e of batch) {
          yield { next: e.next, ino: e.ino, mode: e.type, name: stringBytes(e.name) };
          next = e.next;
        }
      }
    },
    prestat: (fd) => (fd === preopen ? ROOT_NAME : fail(W.BADF)), // BADF also ends wasi-libc's preopen scan

    open: (dirfd, path, flags) => answer(fs.openat(dirfd, byteString(path), flags, 0o644)),
    mkdir: (dirfd, path) => { answer(fs.mkdirat(dirfd, byteString(path), 0o755)); },
    rmdir: (dirfd, path) => { answer(fs.unlinkat(dirfd, byteString(path), AT.REMOVEDIR)); },
    unlink: (dirfd, path) => { answer(fs.unlinkat(dirfd, byteString(path), 0)); },
    stat: (dirfd, path, atFlags) => stat(answer(fs.fstatat(dirfd, byteString(path), atFlags))),
    setTimesAt: (dirfd, path, utimens, atFlags) => { answer(fs.utimensat(dirfd, byteString(path), utimens, atFlags)); },
    link(oldfd, from, newfd, to, atFlags) {
      answer(fs.linkat(oldfd, byteString(from), newfd, byteString(to), atFlags));
    },
    rename(oldfd, from, newfd, to) {
      answer(fs.renameat(oldfd, byteString(from), newfd, byteString(to)));
    },
    symlink: (target, dirfd, path) => { answer(fs.symlinkat(byteString(target), dirfd, byteString(path))); },
    readlink: (dirfd, path, room) => stringBytes(answer(fs.readlinkat(dirfd, byteString(path), room))),
  };
  return fileCalls(backend, memory, { passOn: { calls: STDIO_CALLS, owns: own, to: stdio } });
}
