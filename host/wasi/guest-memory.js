// The guest-memory side of WASI's file calls (host/wasi/file-calls.js, whose backends are
// host/wasi/preopens.js, host directories for modules without Spindle's filesystem, and
// host/jsfs/wasi-calls.js, the --fs=js baseline) and of stdio's (imports.js). It reads a
// module's arguments (paths, iovecs) and writes its results (counts, filestat, fdstat, prestat,
// dirents) in WASI's layouts, each pointer checked against the memory's size first: a hostile module's pointer gets EFAULT, never
// a trap in the host. Errors are thrown as WasiError; `wasiCall` turns them into the errno.
import { DIRENT, ERRNO, FDSTAT, FILESTAT, IOVEC, PREOPENTYPE, PRESTAT } from '../abi/wasi.js';
import { bufferCovering } from '../platform/memory-view.js';

const PATH_MAX = 4096; // Linux's, its terminating NUL included
const IOV_MAX = 1024; // Linux's: more iovecs in one call is EINVAL

export class WasiError extends Error {
  constructor(errno) { super(`wasi errno ${errno}`); this.errno = errno; }
}
export const fail = (errno) => { throw new WasiError(errno); };

/**
 * `fn` as a WASI call: the errno it returns (SUCCESS when it returns nothing) or throws as a
 * WasiError. Anything else thrown goes to `otherError` for its errno, or on to the caller.
 */
export function wasiCall(fn, otherError = null) {
  return sameArity(fn, (...args) => {
    try {
      return fn(...args) ?? ERRNO.SUCCESS;
    } catch (err) {
      if (err instanceof WasiError) return err.errno;
      if (otherError) return otherError(err);
      throw err;
    }
  });
}

/** `wrapper` with fn's parameter count as its length: host/jsfs/proxy.js passes a call that many arguments. */
export const sameArity = (fn, wrapper) => Object.defineProperty(wrapper, 'length', { value: fn.length });

/** A module's memory as its WASI file calls read and write it. */
export function guestMemory(memory) {
  let buffer = null; let u8; let dv;
  const refresh = () => {
    if (memory.buffer !== buffer) { // new views only after memory.grow
      buffer = memory.buffer;
      u8 = new Uint8Array(buffer);
      dv = new DataView(buffer);
    }
  };
  const inBounds = (ptr, len) => {
    if (ptr < 0 || len < 0) return false;
    refresh();
    if (ptr + len <= buffer.byteLength) return true;
    bufferCovering(memory, ptr + len); // (this thread's view may be behind: host/platform/memory-view.js)
    refresh();
    return ptr + len <= buffer.byteLength;
  };
  const check = (ptr, len) => { if (!inBounds(ptr, len)) fail(ERRNO.FAULT); };
  const header = new DataView(new ArrayBuffer(DIRENT.BYTES)); // a dirent's fixed part, before it is cut

  return {
    check,
    /** The memory's bytes and a DataView of them, as of now (call again after the memory may grow). */
    bytes: () => { refresh(); return u8; },
    view: () => { refresh(); return dv; },

    /** A path argument's bytes (a copy); no NUL inside, shorter than PATH_MAX. */
    path(ptr, len) {
      check(ptr, len);
      if (len >= PATH_MAX) fail(ERRNO.NAMETOOLONG);
      const bytes = u8.slice(ptr, ptr + len);
      if (bytes.includes(0)) fail(ERRNO.INVAL); // an embedded NUL cannot name anything
      return bytes;
    },

    /** An iovec array's buffers as [ptr, len] pairs, each inside the memory. */
    iovecs(iovs, count) {
      if (count > IOV_MAX) fail(ERRNO.INVAL);
      check(iovs, count * IOVEC.BYTES);
      const list = [];
      for (let i = 0; i < count; i++) {
        const ptr = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.BUF, true);
        const len = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.LEN, true);
        check(ptr, len);
        list.push([ptr, len]);
      }
      return list;
    },

    putU32(ptr, value) { check(ptr, 4); dv.setUint32(ptr, value, true); },
    putU64(ptr, value) { check(ptr, 8); dv.setBigUint64(ptr, BigInt.asUintN(64, BigInt(value)), true); },

    /** st: { dev, ino, filetype, nlink, size, atim, mtim, ctim }, numbers or BigInts (times in ns). */
    putFilestat(ptr, st) {
      check(ptr, FILESTAT.BYTES);
      u8.fill(0, ptr, ptr + FILESTAT.BYTES);
      dv.setUint8(ptr + FILESTAT.FILETYPE, st.filetype);
      for (const field of ['DEV', 'INO', 'NLINK', 'SIZE', 'ATIM', 'MTIM', 'CTIM']) {
        dv.setBigUint64(ptr + FILESTAT[field], BigInt.asUintN(64, BigInt(st[field.toLowerCase()])), true);
      }
    },

    /** st: { filetype, fdflags, rightsBase, rightsInheriting } (the rights BigInts). */
    putFdstat(ptr, st) {
      check(ptr, FDSTAT.BYTES);
      u8.fill(0, ptr, ptr + FDSTAT.BYTES);
      dv.setUint8(ptr + FDSTAT.FILETYPE, st.filetype);
      dv.setUint16(ptr + FDSTAT.FLAGS, st.fdflags, true);
      dv.setBigUint64(ptr + FDSTAT.RIGHTS_BASE, st.rightsBase, true);
      dv.setBigUint64(ptr + FDSTAT.RIGHTS_INHERITING, st.rightsInheriting, true);
    },

    /** A preopened directory whose name takes nameLength bytes. */
    putPrestat(ptr, nameLength) {
      check(ptr, PRESTAT.BYTES);
      dv.setUint32(ptr + PRESTAT.TAG, PREOPENTYPE.DIR, true);
      dv.setUint32(ptr + PRESTAT.DIR_NAME_LEN, nameLength, true);
    },
    /** The preopen's name (bytes) into a buffer of len bytes, as runtime/wasi answers a short one. */
    putPrestatName(ptr, len, name) {
      check(ptr, len);
      if (len < name.length) fail(ERRNO.NAMETOOLONG);
      u8.set(name, ptr);
    },

    /**
     * fd_readdir's buffer: `add` packs each entry ({ next, ino, filetype, name: bytes }) as a dirent
     * followed by its name, and answers whether the buffer has room left; the last one may be cut
     * off at the buffer's end, which tells wasi-libc to retry with a bigger one. `used` is the
     * count of bytes written.
     */
    direntWriter(buf, bufLen) {
      check(buf, bufLen);
      let used = 0;
      const put = (bytes) => {
        const n = Math.min(bytes.length, bufLen - used);
        u8.set(bytes.subarray(0, n), buf + used);
        used += n;
      };
      return {
        add({ next, ino, filetype, name }) {
          refresh();
          header.setBigUint64(DIRENT.NEXT, BigInt.asUintN(64, BigInt(next)), true);
          header.setBigUint64(DIRENT.INO, BigInt.asUintN(64, BigInt(ino)), true);
          header.setUint32(DIRENT.NAMLEN, name.length, true);
          header.setUint8(DIRENT.TYPE, filetype);
          put(new Uint8Array(header.buffer));
          put(name);
          return used < bufLen;
        },
        get used() { return used; },
      };
    },
  };
}
