// pread, pwrite and ftruncate of the host's stdio fds (docs/POSIX.md, "stdio"). node:fs's
// readSync and writeSync with a position, and ftruncateSync, are those system calls, so the
// kernel answers as it does natively: a regular file is read or written at the offset and its
// own offset stays where it was, a pipe, socket or terminal says ESPIPE (EINVAL to ftruncate),
// a file opened write-only says EBADF to a read.
const { ftruncateSync, readSync, writeSync } = process.getBuiltinModule('node:fs');

/** Thrown errors as the answer: the error's code ('ESPIPE'), else 'EIO'. */
function orCode(fn) {
  try {
    return fn();
  } catch (err) {
    return typeof err?.code === 'string' ? err.code : 'EIO';
  }
}

/** pwrite of all of `bytes` at `position` (a number): the count written, or an error's code. */
export function writeHostFdAt(fd, bytes, position) {
  return orCode(() => {
    // at least one call: an empty pwrite on a pipe is ESPIPE too
    let done = 0;
    let n;
    do {
      n = writeSync(fd, bytes, done, bytes.length - done, position + done);
      done += n;
    } while (done < bytes.length && n > 0);
    return done;
  });
}

// One pread takes at most this much: a larger one is short, which pread may be, rather than a
// buffer as large as the program asked for.
const MOST_READ = 16 * 1024 * 1024;

/** pread of up to `max` bytes at `position` (a number): the bytes, or an error's code. */
export function readHostFdAt(fd, max, position) {
  return orCode(() => {
    const buf = Buffer.alloc(Math.min(max, MOST_READ));
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, position));
  });
}

/** ftruncate to `length` (a number): 0, or an error's code. */
export function truncateHostFd(fd, length) {
  return orCode(() => {
    ftruncateSync(fd, length);
    return 0;
  });
}
