// A host-directory mount's byte quota (`{ path, hostDir, quota }`, `--mount=/P=DIR,quota=1G`):
// how many bytes the program may add to the mount's files during the run, over what they held
// at start. One counter in a SharedArrayBuffer, shared by every thread and I/O worker, moved
// with Atomics: a growth is reserved before the host call (ENOSPC if it does not fit) and what
// was not used is given back after, so concurrent writers can never pass the limit together.
// Counted: the growth of a file's size by a write past its end or an ftruncate to a larger
// size; given back: what ftruncate to a smaller size and O_TRUNC remove. docs/MOUNTS.md.
const { fstatSync } = process.getBuiltinModule('node:fs');

/** The config part of a quota of `limit` bytes (structured-cloneable: a SharedArrayBuffer). */
export function createQuota(limit) {
  return { limit, added: new SharedArrayBuffer(8) };
}

const noSpace = () => Object.assign(new Error('mount quota exceeded'), { code: 'ENOSPC' });

/** A thread's view of a quota made by createQuota (null: no quota). */
export function quotaCounter(quota) {
  if (!quota) return null;
  const added = new BigInt64Array(quota.added);
  const limit = BigInt(quota.limit);
  // Takes `bytes` (>= 0) if they fit under the limit; false if not.
  function reserve(bytes) {
    for (;;) {
      const now = Atomics.load(added, 0);
      if (now + bytes > limit) return false;
      if (Atomics.compareExchange(added, 0, now, now + bytes) === now) return true;
    }
  }
  const giveBack = (bytes) => { if (bytes > 0n) Atomics.sub(added, 0, bytes); };
  // Runs resize() that takes file `fd` from its size to at most `wanted` bytes; resize returns
  // the size it reached. Growth is charged (ENOSPC past the limit), shrinking given back.
  function sized(fd, wanted, resize) {
    const before = BigInt(fstatSync(fd).size);
    const growth = BigInt(wanted) - before;
    if (growth > 0n && !reserve(growth)) throw noSpace();
    let reached = before;
    try {
      reached = BigInt(resize(before));
    } finally {
      const used = reached - before;
      if (growth > 0n) giveBack(growth - (used > 0n ? used : 0n));
      else giveBack(-used);
    }
  }
  return {
    /** Whether nothing is left: creating a new name then fails with ENOSPC, as on a full disk. */
    full: () => Atomics.load(added, 0) >= limit,
    /** pwrite(len bytes at offset) through write() -> bytes written. */
    write(fd, offset, len, write) {
      // (no offset -1, "at the current position": its growth could not be known before)
      if (offset < 0) throw Object.assign(new Error('negative offset'), { code: 'EINVAL' });
      let written = 0;
      sized(fd, offset + len, (before) => {
        written = write();
        return Math.max(Number(before), offset + written);
      });
      return written;
    },
    /** ftruncate(fd, length) through truncate(). */
    truncate(fd, length, truncate) {
      sized(fd, length, () => { truncate(); return length; });
    },
  };
}
