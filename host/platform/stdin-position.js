// The read position of a stdin that is a regular file, shared by every thread (a
// SharedArrayBuffer in the io config): reads take bytes at it, lseek moves it. The host's own
// file offset is never used, so the program sees the file from its start, as `prog < file`.

/** lseek on the position: the new position (BigInt), or null for a negative one (EINVAL). */
export function seekPosition(positionBuffer, offset, whence, size) {
  const position = new BigInt64Array(positionBuffer);
  const base = whence === 0 ? 0n : whence === 1 ? Atomics.load(position, 0) : size;
  const next = base + offset;
  if (next < 0n) return null;
  Atomics.store(position, 0, next);
  return next;
}

/**
 * A reader at the shared position: `readAt(max, position)` gives bytes read there. Two threads
 * reading at once may read the same bytes (the program shares one offset without a lock).
 */
export function positionedReader(positionBuffer, readAt) {
  const position = new BigInt64Array(positionBuffer);
  return (max) => {
    const got = readAt(max, Atomics.load(position, 0));
    Atomics.add(position, 0, BigInt(got.length));
    return got;
  };
}
