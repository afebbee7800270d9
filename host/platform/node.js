// Node's side of the host: stdio through the process's own file descriptors, written
// synchronously from whichever thread calls (so output is never lost at exit and never waits
// for the main thread), clocks from the process-wide high-resolution timer.
import { ERRNO as LINUX_ERRNO } from '../abi/linux.js';
import { addonFunction, addonWanted, mountAddon } from './mount-addon.js';
import { stdinFromBytes } from './stdin-bytes.js';
import { readHostFdAt, truncateHostFd, writeHostFdAt } from './positioned-stdio.js';
import { pipeDescription } from './stdio-description.js';
import { describeHostFd, isTerminal } from './stdio-info.js';
import { positionedReader, seekPosition } from './stdin-position.js';
import { wallClockBaseNs, wallClockNs } from './wall-clock.js';
import { yieldCpu } from './yield-cpu.js';

const { fstatSync, readSync, writeSync } = process.getBuiltinModule('node:fs');

const pause = new Int32Array(new SharedArrayBuffer(4));
const briefly = () => Atomics.wait(pause, 0, 0, 1);

// A pipe the parent made non-blocking answers EAGAIN: wait a moment and go on.
function retryOnAgain(fn) {
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
      briefly();
    }
  }
}

// The reader is gone: EPIPE from a pipe (Node ignores SIGPIPE), or ECONNRESET from a socket
// whose reader closed with bytes still unread (Node's child_process pipes are socketpairs).
const READER_GONE = new Set(['EPIPE', 'ECONNRESET']);

/**
 * Writes all of `bytes` to a file descriptor, synchronously. Returns false if the reader of a
 * pipe or socket is gone, true when everything was written.
 */
export function writeAllSync(fd, bytes) {
  try {
    for (let done = 0; done < bytes.length;) {
      done += retryOnAgain(() => writeSync(fd, bytes, done, bytes.length - done));
    }
  } catch (err) {
    if (READER_GONE.has(err.code)) return false;
    throw err;
  }
  return true;
}

export const name = 'node';
// (the addon asks Node's libuv as node:os does, without loading node:os: ~0.4 ms of a start)
export const cpuCount = () => addonFunction('availableParallelism')?.() ?? process.getBuiltinModule('node:os').availableParallelism();

/** CLOCK_REALTIME less process.hrtime's clock in ns (a BigInt), or null without the addon (host/platform/wall-clock.js). */
export const epochOffsetNs = () => addonFunction('epochOffsetNs')?.() ?? null;

// Reads up to `max` bytes of host fd `fd` at `position` (null: at the fd's own offset).
function readFd(fd, max, position) {
  const buf = Buffer.alloc(max);
  try {
    return buf.subarray(0, retryOnAgain(() => readSync(fd, buf, 0, max, position)));
  } catch (err) {
    if (err.code === 'EOF') return buf.subarray(0, 0);
    throw err;
  }
}

/**
 * The per-thread I/O functions used by host/wasi/imports.js, from the plain-data `io` config;
 * `postToHost(msg)` reports to the host's thread (host/program/program.js, onReport), where that
 * thread's event loop serves reports while the program runs (not while the C main runs on it).
 */
export function threadIo(io, postToHost) {
  const fds = { 0: io.stdinFd ?? 0, 1: io.stdoutFd ?? 1, 2: io.stderrFd ?? 2 };
  // A stdin redirected from a regular file can seek (lseek, pigz's mtime): read at a position
  // all threads share, as the kernel's offset would be.
  let stdinIsFile;
  const seekable = () => {
    stdinIsFile ??= !io.stdinBytes && Boolean(io.stdinPosition) && isRegularFile(fds[0]);
    return stdinIsFile;
  };
  const streamRead = (max) => readFd(fds[0], max, null);
  const fileRead = io.stdinPosition && positionedReader(io.stdinPosition, (max, at) => readFd(fds[0], max, at));
  const readStdin = io.stdinBytes ? stdinFromBytes(io.stdinBytes) : (max) => (seekable() ? fileRead(max) : streamRead(max));
  return {
    writeStdio: (fd, bytes) => writeAllSync(fds[fd], bytes),
    readStdin,
    isatty: (fd) => (fd === 0 && io.stdinBytes ? false : isTerminal(fds[fd])),
    describeStdio: (fd) => (fd === 0 && io.stdinBytes ? pipeDescription() : describeHostFd(fds[fd])),
    seekStdin: (offset, whence) => (seekable()
      ? seekPosition(io.stdinPosition, offset, whence, fstatSync(fds[0], { bigint: true }).size) : undefined),
    seekOutput: (fd, offset, whence) => seekHostFile(fds[fd], offset, whence),
    // pread/pwrite: the kernel's answer for the host fd; stdin given as bytes is a pipe
    readStdioAt: (fd, max, position) => (fd === 0 && io.stdinBytes ? 'ESPIPE' : readHostFdAt(fds[fd], max, position)),
    writeStdioAt: (fd, bytes, position) => (fd === 0 && io.stdinBytes ? 'ESPIPE' : writeHostFdAt(fds[fd], bytes, position)),
    truncateStdio: (fd, length) => (fd === 0 && io.stdinBytes ? 'EINVAL' : truncateHostFd(fds[fd], length)),
    monotonicNs: () => process.hrtime.bigint(),
    // Not Date.now(): its whole milliseconds made CLOCK_REALTIME deadlines (pthread_cond_timedwait,
    // std::condition_variable::wait_for) end up to 1 ms early by the monotonic clock.
    realtimeNs: wallClockNs,
    keepStampClock: (memory, at) => keepStampClock(memory, at, postToHost),
    randomFill: (u8) => globalThis.crypto.getRandomValues(u8),
    yieldCpu: yieldCpu(), // sched_yield
  };
}

/**
 * The file system's stamp clock kept in the program's memory, the cell at byte `at` (from the
 * program: the addon checks it), by the addon's native thread (stamp_ticker.c); without the addon
 * (a package install), by a timer on the host's thread (host/program/stamp-ticker.js, as a page
 * does) where that thread's event loop is free while the program runs (`postToHost` given).
 * 1 when one ticks, 0 where none can.
 */
function keepStampClock(memory, at, postToHost) {
  const tick = addonFunction('stampTicker');
  const baseNs = wallClockBaseNs();
  if (tick && baseNs !== null && tick(new DataView(memory.buffer), at, baseNs)) return 1;
  if (!postToHost) return 0;
  postToHost({ type: 'stamp-ticker', at });
  return 1;
}

/**
 * lseek on a stdout or stderr that is a regular file: the host fd's own offset, which the shell
 * that opened it shares (`{ prog; echo more; } > file`), and at which writeSync (no position)
 * writes. Node has no lseek, so this takes the mount addon (host/platform/mount-addon.js);
 * without it, or for anything but a regular file, undefined (ESPIPE). null: EINVAL.
 */
export function seekHostFile(fd, offset, whence) {
  const addon = addonWanted() && isRegularFile(fd) ? mountAddon() : null;
  if (typeof addon?.lseek !== 'function') return undefined; // an addon built before lseek
  const at = addon.lseek(fd, Number(offset), whence);
  if (at >= 0) return BigInt(at);
  return at === -LINUX_ERRNO.EINVAL ? null : undefined;
}

function isRegularFile(fd) {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}
