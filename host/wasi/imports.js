// The host half of WASI preview1 that Spindle modules need from JavaScript: arguments,
// environment, clocks, randomness, stdio, sleeping (poll_oneoff) and exit. Files are not
// here: they live in linear memory (runtime/fs), or, for a module without that runtime given
// --mount, in host/wasi/preopens.js. Calls this host does not provide answer
// ENOSYS instead of failing instantiation.

import {
  CLOCK, ERRNO, EVENT, EVENTTYPE, FDFLAGS, FDSTAT, FILESTAT, FILETYPE, IOVEC, RIGHTS, SUBCLOCKFLAGS, SUBSCRIPTION,
} from '../abi/wasi.js';
import { bufferCovering } from '../platform/memory-view.js';
import { staysAtZero } from '../platform/stdio-description.js';
import { guestMemory } from './guest-memory.js';

const FIRST_PREOPEN_FD = 3;
const NO_FILES_NOTE = 'spindle: this module has no filesystem of its own (not built by spindle cc or spindle cargo, ' +
  'or built with --fs=none), and no directory was given: every file call fails. Rebuild it with spindle cc / ' +
  'spindle cargo, or give it host directories with spindle run --mount=/PATH=DIR (Node; docs/RUST.md).\n';
const RIGHTS_SEEK_TELL = RIGHTS.FD_SEEK | RIGHTS.FD_TELL;

/** Thrown by proc_exit to unwind the calling thread's wasm stack. */
export class ProgramExit extends Error {
  constructor(code) { super(`exit(${code})`); this.code = code; }
}

function encodeStrings(strings) {
  return strings.map((s) => new TextEncoder().encode(`${s}\0`));
}

/**
 * @param {object} ctx
 * @param {WebAssembly.Memory} ctx.memory
 * @param {string[]} ctx.args            argv, program name first
 * @param {Record<string,string>} ctx.env
 * @param {object} ctx.platform          stdio, clocks, randomness of this host (host/platform/*),
 *                                       and its yieldCpu (null: sched_yield does nothing)
 * @param {(code:number)=>never} ctx.exit
 * @param {(ns:bigint)=>void} [ctx.sleep]  how poll_oneoff sleeps (the JS FS's host thread
 *                                         serves proxied calls while it sleeps)
 * @param {()=>void} [ctx.brokenPipe]      called when stdout's or stderr's reader is gone (the
 *                                         write then answers EPIPE)
 * @param {()=>boolean} [ctx.ended]        whether the program has ended: output after its end
 *                                         is not written, the calling thread unwinds instead
 */
export function wasiImports({ memory, args, env, platform, exit, sleep, brokenPipe, ended }) {
  const argBytes = encodeStrings(args);
  const envBytes = encodeStrings(Object.entries(env).map(([k, v]) => `${k}=${v}`));
  const view = () => new DataView(memory.buffer);
  const u8 = () => new Uint8Array(memory.buffer);
  const guest = guestMemory(memory); // (bounds are checked before each use below)
  const sleepCell = new Int32Array(new SharedArrayBuffer(4));
  const yieldCpu = platform.yieldCpu ?? (() => {}); // where the host has no way, a yield does nothing

  function inBounds(ptr, len) {
    return ptr >= 0 && len >= 0 && ptr + len <= bufferCovering(memory, ptr + len).byteLength;
  }

  // The clock is read on every file write (the mtime), so its answer goes through a DataView
  // kept between calls: making one per call was half the call's cost. A shared memory's buffer
  // stays valid when the memory grows (a pointer beyond the kept view gets a new, longer one);
  // an unshared buffer is detached by a grow, so its view is never kept.
  let keptView = null;
  function viewCovering(ptr, len) {
    if (keptView && ptr >= 0 && len >= 0 && ptr + len <= keptView.byteLength) return keptView;
    if (!inBounds(ptr, len)) return null;
    const buffer = memory.buffer;
    const dv = new DataView(buffer);
    if (buffer instanceof SharedArrayBuffer) keptView = dv;
    return dv;
  }

  function putStrings(list, ptrsPtr, bufPtr) {
    let total = 0;
    for (const s of list) total += s.length;
    if (!inBounds(ptrsPtr, list.length * 4) || !inBounds(bufPtr, total)) return ERRNO.FAULT;
    const dv = view(); const mem = u8();
    for (const s of list) {
      dv.setUint32(ptrsPtr, bufPtr, true);
      mem.set(s, bufPtr);
      ptrsPtr += 4; bufPtr += s.length;
    }
    return ERRNO.SUCCESS;
  }

  function putSizes(list, countPtr, sizePtr) {
    if (!inBounds(countPtr, 4) || !inBounds(sizePtr, 4)) return ERRNO.FAULT;
    const dv = view();
    dv.setUint32(countPtr, list.length, true);
    dv.setUint32(sizePtr, list.reduce((n, s) => n + s.length, 0), true);
    return ERRNO.SUCCESS;
  }

  function clockNow(id) {
    if (id === CLOCK.REALTIME) return platform.realtimeNs();
    if (id === CLOCK.MONOTONIC || id === CLOCK.PROCESS_CPUTIME_ID || id === CLOCK.THREAD_CPUTIME_ID) {
      return platform.monotonicNs();
    }
    return null;
  }

  const isStdio = (fd) => fd >= 0 && fd <= 2;

  // The i-th iovec's buffer address and length.
  const iovPtr = (dv, iovs, i) => dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.BUF, true);
  const iovLen = (dv, iovs, i) => dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.LEN, true);

  // The iovec array's buffers as [ptr, len] pairs, or null when one lies outside memory.
  function iovecList(iovs, iovsLen) {
    if (!inBounds(iovs, iovsLen * IOVEC.BYTES)) return null;
    const dv = view();
    const list = [];
    for (let i = 0; i < iovsLen; i++) {
      const [ptr, len] = [iovPtr(dv, iovs, i), iovLen(dv, iovs, i)];
      if (!inBounds(ptr, len)) return null;
      list.push([ptr, len]);
    }
    return list;
  }

  // The bytes of all the iovecs' buffers in one array, or null (EFAULT). Every printf comes
  // here (fd_write), so it checks and sums in one pass and copies in a second, with no list.
  function gather(iovs, iovsLen) {
    if (!inBounds(iovs, iovsLen * IOVEC.BYTES)) return null;
    const dv = view();
    let total = 0;
    for (let i = 0; i < iovsLen; i++) {
      const len = iovLen(dv, iovs, i);
      if (!inBounds(iovPtr(dv, iovs, i), len)) return null;
      total += len;
    }
    const out = new Uint8Array(total);
    const mem = u8();
    for (let i = 0, at = 0; i < iovsLen; i++) {
      const [ptr, len] = [iovPtr(dv, iovs, i), iovLen(dv, iovs, i)];
      out.set(mem.subarray(ptr, ptr + len), at);
      at += len;
    }
    return out;
  }

  // pread's and pwrite's offset (ftruncate's length) as node:fs takes it; an error number for
  // one it cannot take.
  const positionError = (offset) => (offset < 0n ? ERRNO.INVAL : offset > BigInt(Number.MAX_SAFE_INTEGER) ? ERRNO.FBIG : null);
  // A platform's answer that is an error's code ('ESPIPE') as WASI's number.
  const codeErrno = (code) => ERRNO[code.replace(/^E/, '')] ?? ERRNO.IO;

  // Said once, on stderr: such a program then fails with its own "not found" error.
  let notedNoFiles = false;
  function noteNoFiles() {
    if (notedNoFiles) return;
    notedNoFiles = true;
    platform.writeStdio(2, new TextEncoder().encode(NO_FILES_NOTE));
  }

  function sleepNs(ns) {
    if (ns <= 0n) return;
    if (sleep) { sleep(ns); return; }
    // Atomics.wait works in workers and on Node's main thread, where C code runs.
    Atomics.wait(sleepCell, 0, 0, Number(ns) / 1e6);
  }

  const imports = {
    args_get: (argv, buf) => putStrings(argBytes, argv, buf),
    args_sizes_get: (count, size) => putSizes(argBytes, count, size),
    environ_get: (environ, buf) => putStrings(envBytes, environ, buf),
    environ_sizes_get: (count, size) => putSizes(envBytes, count, size),

    clock_res_get(id, resPtr) {
      if (clockNow(id) === null) return ERRNO.INVAL;
      if (!inBounds(resPtr, 8)) return ERRNO.FAULT;
      view().setBigUint64(resPtr, 1000n, true);
      return ERRNO.SUCCESS;
    },
    clock_time_get(id, _precision, timePtr) {
      const now = clockNow(id);
      if (now === null) return ERRNO.INVAL;
      const dv = viewCovering(timePtr, 8);
      if (!dv) return ERRNO.FAULT;
      dv.setBigUint64(timePtr, now, true);
      return ERRNO.SUCCESS;
    },

    random_get(ptr, len) {
      if (!inBounds(ptr, len)) return ERRNO.FAULT;
      // getRandomValues refuses views of shared memory and takes at most 64 KiB a call.
      const chunk = new Uint8Array(Math.min(len, 65536));
      for (let done = 0; done < len; done += chunk.length) {
        const part = chunk.subarray(0, Math.min(chunk.length, len - done));
        platform.randomFill(part);
        u8().set(part, ptr + done);
      }
      return ERRNO.SUCCESS;
    },

    fd_write(fd, iovs, iovsLen, nwrittenPtr) {
      if (fd !== 1 && fd !== 2) return ERRNO.BADF;
      if (ended?.()) exit(0); // as natively, a thread writes nothing after the program's end
      if (!inBounds(nwrittenPtr, 4)) return ERRNO.FAULT;
      // One gathered write: keeps a printf's pieces together when threads interleave.
      const out = gather(iovs, iovsLen);
      if (!out) return ERRNO.FAULT;
      const total = out.length;
      // writeStdio answers false when the reader closed the pipe (docs/HOST.md: broken pipes)
      if (total > 0 && platform.writeStdio(fd, out) === false) {
        brokenPipe?.();
        return ERRNO.PIPE;
      }
      view().setUint32(nwrittenPtr, total, true);
      return ERRNO.SUCCESS;
    },

    fd_read(fd, iovs, iovsLen, nreadPtr) {
      if (fd !== 0) return ERRNO.BADF;
      if (!inBounds(iovs, iovsLen * IOVEC.BYTES) || !inBounds(nreadPtr, 4)) return ERRNO.FAULT;
      const dv = view();
      let nread = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.BUF, true);
        const len = dv.getUint32(iovs + i * IOVEC.BYTES + IOVEC.LEN, true);
        if (!inBounds(ptr, len)) return ERRNO.FAULT;
        if (len === 0) continue;
        const got = platform.readStdin(len);
        u8().set(got, ptr);
        nread += got.length;
        if (got.length < len) break; // short read: return what we have
      }
      view().setUint32(nreadPtr, nread, true);
      return ERRNO.SUCCESS;
    },

    // pread and pwrite of stdio (docs/POSIX.md, "stdio"): the platform asks the host's fd, whose
    // kernel honours the offset of a regular file (leaving its own offset) or says ESPIPE or
    // EBADF; a platform without the calls (a page's own stdio) is a pipe.
    fd_pread(fd, iovs, iovsLen, offset, nreadPtr) {
      if (!isStdio(fd)) return ERRNO.BADF;
      const list = iovecList(iovs, iovsLen);
      if (!list || !inBounds(nreadPtr, 4)) return ERRNO.FAULT;
      const bad = positionError(offset);
      if (bad !== null) return bad;
      const total = list.reduce((n, [, len]) => n + len, 0);
      const got = platform.readStdioAt?.(fd, total, Number(offset)) ?? 'ESPIPE';
      if (typeof got === 'string') return codeErrno(got);
      const mem = u8();
      let at = 0;
      for (const [ptr, len] of list) {
        mem.set(got.subarray(at, at + len), ptr);
        at += Math.min(len, got.length - at);
      }
      view().setUint32(nreadPtr, got.length, true);
      return ERRNO.SUCCESS;
    },
    fd_pwrite(fd, iovs, iovsLen, offset, nwrittenPtr) {
      if (!isStdio(fd)) return ERRNO.BADF;
      if (ended?.()) exit(0);
      const out = gather(iovs, iovsLen);
      if (!out || !inBounds(nwrittenPtr, 4)) return ERRNO.FAULT;
      const bad = positionError(offset);
      if (bad !== null) return bad;
      const done = platform.writeStdioAt?.(fd, out, Number(offset)) ?? 'ESPIPE';
      if (typeof done === 'string') return codeErrno(done);
      view().setUint32(nwrittenPtr, done, true);
      return ERRNO.SUCCESS;
    },

    // ftruncate of stdio (an open of /dev/stdout with O_TRUNC too): the host's fd, as pwrite's;
    // a platform without the call (a page's own stdio) has pipes, which Linux refuses (EINVAL)
    fd_filestat_set_size(fd, size) {
      if (!isStdio(fd)) return ERRNO.BADF;
      const bad = positionError(size);
      if (bad !== null) return bad;
      const answer = platform.truncateStdio?.(fd, Number(size)) ?? 'EINVAL';
      return typeof answer === 'string' ? codeErrno(answer) : ERRNO.SUCCESS;
    },

    fd_fdstat_get(fd, statPtr) {
      if (!isStdio(fd)) return ERRNO.BADF;
      if (!inBounds(statPtr, FDSTAT.BYTES)) return ERRNO.FAULT;
      // wasi-libc's isatty() is "character device without seek/tell rights": answer as the
      // host's own fd is, so stdout is line-buffered on a terminal and fully buffered in a pipe.
      const tty = platform.isatty(fd);
      guest.putFdstat(statPtr, { filetype: tty ? FILETYPE.CHARACTER_DEVICE : FILETYPE.UNKNOWN,
        fdflags: fd === 0 ? 0 : FDFLAGS.APPEND, // outputs append
        rightsBase: tty ? RIGHTS.ALL & ~RIGHTS_SEEK_TELL : RIGHTS.ALL, rightsInheriting: RIGHTS.ALL });
      return ERRNO.SUCCESS;
    },
    fd_fdstat_set_flags: (fd) => (isStdio(fd) ? ERRNO.SUCCESS : ERRNO.BADF),
    // What the host's fd is (docs/POSIX.md, "stdio"): a redirected file's type, size and times,
    // a pipe (WASI's "unknown"), a terminal.
    fd_filestat_get(fd, bufPtr) {
      if (!isStdio(fd)) return ERRNO.BADF;
      if (!inBounds(bufPtr, FILESTAT.BYTES)) return ERRNO.FAULT;
      const info = platform.describeStdio(fd);
      guest.putFilestat(bufPtr, { dev: info.dev, ino: info.ino, filetype: info.filetype, nlink: info.nlink,
        size: info.size, atim: info.atimNs, mtim: info.mtimNs, ctim: info.ctimNs });
      return ERRNO.SUCCESS;
    },
    // Only stdio redirected from or to a regular file seeks: stdin at a position the platform
    // keeps, stdout and stderr at the host fd's own offset (Node, with the mount addon). A
    // device such as /dev/null answers 0, a pipe or a terminal ESPIPE, as on Linux.
    fd_seek(fd, offset, whence, newOffsetPtr) {
      if (!isStdio(fd)) return ERRNO.BADF;
      if (whence < 0 || whence > 2) return ERRNO.INVAL;
      if (!inBounds(newOffsetPtr, 8)) return ERRNO.FAULT;
      let position = fd === 0 ? platform.seekStdin?.(BigInt(offset), whence)
        : platform.seekOutput?.(fd, BigInt(offset), whence);
      if (position === undefined && staysAtZero(platform.describeStdio(fd))) position = 0n;
      if (position === undefined) return ERRNO.SPIPE;
      if (position === null) return ERRNO.INVAL;
      view().setBigUint64(newOffsetPtr, position, true);
      return ERRNO.SUCCESS;
    },
    fd_tell: (fd, offsetPtr) => imports.fd_seek(fd, 0n, 1, offsetPtr),
    // Linux: a pipe takes no advice (ESPIPE); other stdio ignores it
    fd_advise(fd) {
      if (!isStdio(fd)) return ERRNO.BADF;
      return platform.describeStdio(fd).filetype === FILETYPE.UNKNOWN ? ERRNO.SPIPE : ERRNO.SUCCESS;
    },
    fd_close: (fd) => (isStdio(fd) ? ERRNO.SUCCESS : ERRNO.BADF),
    fd_sync: (fd) => (isStdio(fd) ? ERRNO.INVAL : ERRNO.BADF),
    fd_datasync: (fd) => (isStdio(fd) ? ERRNO.INVAL : ERRNO.BADF),
    // No preopens: files live in runtime/fs. Only a module without Spindle's filesystem (not
    // built by spindle cc/cargo, or --fs=none) asks the host, when it first opens a file.
    fd_prestat_get(fd) {
      if (fd === FIRST_PREOPEN_FD) noteNoFiles();
      return ERRNO.BADF;
    },
    fd_prestat_dir_name: () => ERRNO.BADF,

    poll_oneoff(inPtr, outPtr, nsubs, neventsPtr) {
      if (nsubs === 0) return ERRNO.INVAL;
      if (!inBounds(inPtr, nsubs * SUBSCRIPTION.BYTES) || !inBounds(outPtr, nsubs * EVENT.BYTES) || !inBounds(neventsPtr, 4)) {
        return ERRNO.FAULT;
      }
      let dv = view();
      const events = [];
      let wakeAt = null; // earliest clock deadline (monotonic ns)
      let clockUserdata = 0n;
      for (let i = 0; i < nsubs; i++) {
        const sub = inPtr + i * SUBSCRIPTION.BYTES;
        const userdata = dv.getBigUint64(sub + SUBSCRIPTION.USERDATA, true);
        const tag = dv.getUint8(sub + SUBSCRIPTION.TAG);
        if (tag === EVENTTYPE.CLOCK) {
          const id = dv.getUint32(sub + SUBSCRIPTION.CLOCK_ID, true);
          const timeout = dv.getBigUint64(sub + SUBSCRIPTION.CLOCK_TIMEOUT, true);
          const absolute = dv.getUint16(sub + SUBSCRIPTION.CLOCK_FLAGS, true) & SUBCLOCKFLAGS.SUBSCRIPTION_CLOCK_ABSTIME;
          const now = clockNow(id);
          if (now === null) { events.push([userdata, ERRNO.INVAL, tag]); continue; }
          const deadline = platform.monotonicNs() + (absolute ? timeout - now : timeout);
          if (wakeAt === null || deadline < wakeAt) { wakeAt = deadline; clockUserdata = userdata; }
        } else {
          // stdio is always "ready": a read blocks in fd_read itself.
          const fd = dv.getUint32(sub + SUBSCRIPTION.FD, true);
          events.push([userdata, isStdio(fd) ? ERRNO.SUCCESS : ERRNO.BADF, tag]);
        }
      }
      if (events.length === 0 && wakeAt !== null) {
        sleepNs(wakeAt - platform.monotonicNs());
        events.push([clockUserdata, ERRNO.SUCCESS, EVENTTYPE.CLOCK]);
      }
      dv = view();
      events.forEach(([userdata, error, type], i) => {
        const ev = outPtr + i * EVENT.BYTES;
        dv.setBigUint64(ev + EVENT.USERDATA, userdata, true);
        dv.setUint16(ev + EVENT.ERROR, error, true);
        dv.setUint8(ev + EVENT.TYPE, type);
        dv.setBigUint64(ev + EVENT.NBYTES, 0n, true);
        dv.setUint16(ev + EVENT.FLAGS, 0, true);
      });
      dv.setUint32(neventsPtr, events.length, true);
      return ERRNO.SUCCESS;
    },

    // It takes no arguments: whatever the module passes is ignored.
    sched_yield: () => {
      yieldCpu();
      return ERRNO.SUCCESS;
    },
    proc_exit: (code) => exit(code),
    proc_raise: () => ERRNO.NOSYS,
  };

  // Anything else the module imports from WASI (sockets, files when runtime/fs is not linked)
  // answers ENOSYS, like a host without that feature.
  return new Proxy(imports, {
    get: (target, name) => (name in target ? target[name] : () => ERRNO.NOSYS),
  });
}

/**
 * spindle.stdio_name (runtime/wasi/wasi_stdio.c): the text Linux's /proc/self/fd shows for the
 * host's stdio fd `fd`, written at `ptr` (at most `size` bytes); its length, or -1.
 */
export function stdioNameImport(memory, platform) {
  return (fd, ptr, size) => {
    if (fd < 0 || fd > 2) return -1;
    const text = new TextEncoder().encode(platform.describeStdio(fd).name);
    if (text.length > size || ptr < 0 || ptr + text.length > bufferCovering(memory, ptr + text.length).byteLength) return -1;
    new Uint8Array(memory.buffer).set(text, ptr);
    return text.length;
  };
}

/**
 * spindle.stdio_fs_type (runtime/posix/statfs.c): the f_type Linux's fstatfs gives for the
 * host's stdio fd `fd` (its bits as an i32), or 0 when the host cannot say.
 */
export function stdioFsTypeImport(platform) {
  return (fd) => (fd >= 0 && fd <= 2 ? (platform.describeStdio(fd).fsType ?? 0) | 0 : 0);
}
