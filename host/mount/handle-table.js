// A mount's handle table (docs/MOUNTS.md, "Handles are capabilities"): the only way a handle the
// module sends can name a host object. The host-directory backend opens Node file descriptors,
// which belong to the whole process; the module never sees one. It gets a handle that names a
// slot of this table and the open that filled it, and every request on a handle is checked here:
// a number the mount did not hand out, one of another mount, or one already closed is EBADF.
//
// The table is a SharedArrayBuffer made on the coordinator, so every thread (requests are served
// on the calling thread's worker) checks every handle. Per slot, Int32 words:
//   WORD   0 free, BUSY while being filled or closed, else the serial of the open that holds it
//   VALUE  what the slot names (a Node fd)
//   USERS  requests using the slot right now (a close waits for them, so an fd is never closed,
//          and its number reused by the process, under a request that checked it)
// A handle is tag << 48 | serial << 16 | slot. The serial counts opens on the mount and never
// repeats within 2^32 - 2 opens, so a closed handle does not name the file that took its slot.
// The tag (1 + the mount's id) makes one mount's handles EBADF on another.
import { ERRNO as E } from '../abi/linux.js';

const SLOT_BITS = 16;
export const SLOTS = 1 << SLOT_BITS;
const INTS = 4;
const WORD = 0;
const VALUE = 1;
const USERS = 2;
const BUSY = -1;
const HEADER = INTS; // [0] the serial counter, [1] where the next free slot is looked for
const MAX_TAG = 0xff;

// A handle less its tag, serial << 16 | slot (48 bits, exact as a double), is its key: the
// backend's hot calls pass keys, read from the request as two 32-bit words, and make no BigInt.
const TAG_SHIFT = 2 ** 48;
const WORD_SHIFT = 2 ** 32;
const slotOf = (key) => key % SLOTS;
// the serial as the int32 its slot's WORD holds
const serialOf = (key) => Math.floor(key / SLOTS) | 0;

export class HandleError extends Error {
  constructor(errno) { super(`errno ${errno}`); this.errno = errno; }
}

/** Coordinator: a new, empty table (untouched pages cost no memory). */
export const createHandleTable = () => new SharedArrayBuffer((HEADER + SLOTS * INTS) * 4);

export class HandleTable {
  /** buffer: from createHandleTable; mountId: the mount's position (0..254). */
  constructor(buffer, mountId) {
    if (!(mountId >= 0 && mountId < MAX_TAG)) throw new Error(`handle table: bad mount id ${mountId}`);
    this.words = new Int32Array(buffer);
    this.tagNumber = mountId + 1;
    this.tag = BigInt(this.tagNumber);
  }

  /** Records `value` (an int32); returns its new handle (a BigInt). EMFILE when full. */
  add(value) {
    return this.handleOf(this.addKey(value));
  }

  /** add(), returning the handle's key (a number; handleOf gives the handle). */
  addKey(value) {
    const w = this.words;
    let serial;
    do serial = (Atomics.add(w, 0, 1) + 1) | 0; while (serial === 0 || serial === BUSY);
    const start = Atomics.add(w, 1, 1) & (SLOTS - 1);
    for (let n = 0; n < SLOTS; n++) {
      const slot = (start + n) & (SLOTS - 1);
      const at = HEADER + slot * INTS;
      if (Atomics.compareExchange(w, at + WORD, 0, BUSY) !== 0) continue;
      w[at + VALUE] = value;
      Atomics.store(w, at + WORD, serial);
      return (serial >>> 0) * SLOTS + slot;
    }
    throw new HandleError(E.EMFILE);
  }

  /** The handle (a BigInt) of a key. */
  handleOf(key) {
    return (this.tag << 48n) | BigInt(key);
  }

  /** The key of a handle, or -1 unless it has this mount's tag. */
  keyOf(handle) {
    return handle >> 48n === this.tag ? Number(handle & 0xffffffffffffn) : -1;
  }

  /** The key of the handle whose low and high 32-bit words are lo and hi, or -1 (keyOf). */
  keyOfWords(lo, hi) {
    return hi >>> 16 === this.tagNumber ? (hi & 0xffff) * WORD_SHIFT + lo : -1;
  }

  /** Writes key's handle at byte `at` of `view`, as setBigUint64 would (two words, no BigInt). */
  writeHandle(view, at, key) {
    view.setUint32(at, key >>> 0, true);
    view.setUint32(at + 4, this.tagNumber * 2 ** 16 + Math.floor(key / WORD_SHIFT), true);
  }

  // The word index of a key's slot, or -1 for no key or one that cannot be live.
  #at(key) {
    if (!(key >= 0 && key < TAG_SHIFT)) return -1;
    const serial = serialOf(key);
    return serial === 0 || serial === BUSY ? -1 : HEADER + slotOf(key) * INTS;
  }

  /** Runs fn(value) for a live handle (EBADF otherwise); the slot cannot be closed meanwhile. */
  use(handle, fn) {
    return this.useKey(this.keyOf(handle), fn);
  }

  /** use() by the handle's key. */
  useKey(key, fn) {
    const w = this.words;
    const at = this.#at(key);
    const serial = serialOf(key);
    if (at < 0 || Atomics.load(w, at + WORD) !== serial) throw new HandleError(E.EBADF);
    Atomics.add(w, at + USERS, 1);
    try {
      // a close may have taken the slot between the check and the count: check again
      if (Atomics.load(w, at + WORD) !== serial) throw new HandleError(E.EBADF);
      return fn(w[at + VALUE]);
    } finally {
      if (Atomics.sub(w, at + USERS, 1) === 1) Atomics.notify(w, at + USERS);
    }
  }

  /**
   * Closes a live handle: from now on it is EBADF; once no request uses it, close(value) runs
   * and the slot is free again. EBADF if the handle is not live (closed twice, forged).
   */
  remove(handle, close) {
    return this.removeKey(this.keyOf(handle), close);
  }

  /** remove() by the handle's key. */
  removeKey(key, close) {
    const w = this.words;
    const at = this.#at(key);
    const serial = serialOf(key);
    if (at < 0 || Atomics.compareExchange(w, at + WORD, serial, BUSY) !== serial) throw new HandleError(E.EBADF);
    for (let users; (users = Atomics.load(w, at + USERS)) !== 0;) Atomics.wait(w, at + USERS, users, 50);
    try {
      return close(w[at + VALUE]);
    } finally {
      Atomics.store(w, at + WORD, 0);
    }
  }

  /**
   * The program is over: closes (close(value)) what it left open. A slot a request is still in
   * (a worker stopped mid-call) is left alone: its fd may be in use.
   */
  closeAll(close) {
    const w = this.words;
    for (let slot = 0; slot < SLOTS; slot++) {
      const at = HEADER + slot * INTS;
      const word = Atomics.load(w, at + WORD);
      if (word === 0 || word === BUSY || Atomics.compareExchange(w, at + WORD, word, BUSY) !== word) continue;
      if (Atomics.load(w, at + USERS) !== 0) continue;
      try { close(w[at + VALUE]); } catch { /* closed already */ }
      Atomics.store(w, at + WORD, 0);
    }
  }
}
