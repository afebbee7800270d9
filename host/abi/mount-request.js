// The mount protocol's request (docs/MOUNTS.md section 3): its layout in linear memory, the op
// numbers, and which I/O worker serves it. C's side is runtime/fs/mount/mount_wire.h (struct
// mount_request, enum mount_op); tests/abi.test.js checks every offset and number against it.

/** Byte offsets of struct mount_request's fields (little-endian); BYTES is its size. */
export const REQ = {
  STATE: 0, OP: 4, MOUNT: 8, FLAGS: 12, RESULT: 16, HANDLE: 24, OFFSET: 32, PTR: 40, LEN: 44,
  PATH: 48, PATH_LEN: 52, PATH2: 56, PATH2_LEN: 60, MODE: 64, FOLLOW: 68, TIMES: 72, BYTES: 104,
};

export const OP = {
  OPEN: 1, CLOSE: 2, PREAD: 3, PWRITE: 4, FSTAT: 5, FTRUNCATE: 6, FSYNC: 7, READDIR: 8, STAT: 9,
  MKDIR: 10, UNLINK: 11, RENAME: 12, LINK: 13, SYMLINK: 14, READLINK: 15, UTIMENS: 16, FUTIMENS: 17,
  CHMOD: 18, FCHMOD: 19,
};

/**
 * The result "the path continues elsewhere": a symlink's target leaves the mount, and the path to
 * resolve instead in the program's tree (absolute, or relative to the mount's root) is written
 * NUL-terminated at the request's FOLLOW address, in at most FOLLOW_BYTES bytes with the NUL.
 */
export const FOLLOW = { RESULT: -4096, BYTES: 4096 };
/** The ops whose caller can go on with such a path (C sets FOLLOW on them; others get EXDEV). */
export const FOLLOW_OPS = new Set([OP.OPEN, OP.STAT, OP.UTIMENS, OP.CHMOD]);

/** FSYNC's flags: the data only (fdatasync). */
export const FSYNC_DATASYNC = 1;

/** The ops that carry a handle (and go to the I/O worker that made it). */
export const HANDLE_OPS = new Set([OP.CLOSE, OP.PREAD, OP.PWRITE, OP.FSTAT, OP.FTRUNCATE, OP.FSYNC, OP.READDIR, OP.FUTIMENS, OP.FCHMOD]);

/** Whether `request` is a whole, 8-byte aligned request inside the memory `buffer`. */
export const requestInMemory = (buffer, request) => request % 8 === 0 && request + REQ.BYTES <= buffer.byteLength;

/**
 * The `len` bytes at `ptr` of the request's memory, or null when they are not all inside it (the
 * module sent a bad address: the backend answers EFAULT).
 */
export function memoryBytes(view, ptr, len) {
  return inMemory(view, ptr, len) ? new Uint8Array(view.buffer, ptr, len) : null;
}

/** Whether the `len` bytes at `ptr` lie inside the request's memory (no view made). */
export const inMemory = (view, ptr, len) => ptr + len <= view.byteLength;

/** Writes a request's result (a BigInt or a number: >= 0, or -errno). Not its state. */
export function setResult(view, request, value) {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    // two 32-bit halves: no BigInt made for the common answer (a count, 0 or -errno)
    view.setUint32(request + REQ.RESULT, value >>> 0, true);
    view.setInt32(request + REQ.RESULT + 4, Math.floor(value / 2 ** 32), true);
  } else {
    view.setBigInt64(request + REQ.RESULT, BigInt(value), true);
  }
}

// Handles made by an I/O worker carry its index in their low 8 bits (so at most 255 workers):
// every request on a handle goes back to the worker that holds the file.
export const MAX_IO_WORKERS = 255;
/** The handle an I/O worker `w` returns for its own number `id`. */
export const ioHandle = (id, w) => (BigInt(id) << 8n) | BigInt(w);
/** { id, w } of a handle made by ioHandle. */
export const ioHandleParts = (handle) => ({ id: handle >> 8n, w: Number(handle & 0xffn) });

/**
 * Which of n I/O workers serves the request: OPEN round-robin (a shared counter `rr`, an
 * Int32Array), a request on a handle the worker that made it, everything else worker 0.
 * -1: a handle no worker of this mount made (answer EBADF).
 */
export function ioWorkerOf(view, request, n, rr) {
  const op = view.getInt32(request + REQ.OP, true);
  if (op === OP.OPEN) return Atomics.add(rr, 0, 1) % n;
  if (!HANDLE_OPS.has(op)) return 0;
  const { w } = ioHandleParts(view.getBigUint64(request + REQ.HANDLE, true));
  return w < n ? w : -1;
}
