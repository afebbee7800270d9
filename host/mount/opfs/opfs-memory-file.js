// A file's bytes kept in JavaScript memory instead of behind a sync access handle (docs/OPFS.md):
// an unlinked file that is still open (opfs-detach.js), or a new file whose bytes are not yet
// written to OPFS (opfs-backend.js). Reads past the end give 0 bytes; writes past it grow the
// file, with zeros in any gap, as on Linux.
export class MemoryFile {
  constructor(bytes = new Uint8Array(64), size = 0) {
    this.bytes = bytes; // room to grow into: size bytes of it are the file
    this.size = size;
  }

  /** The file's bytes (a view, not a copy). */
  contents() { return this.bytes.subarray(0, this.size); }

  // read and write take { at } as a sync access handle's do, so callers use either alike

  /** Copies up to dst.length bytes from offset `at` into dst; returns how many. */
  read(dst, { at }) {
    const n = Math.max(0, Math.min(dst.length, this.size - at));
    if (n > 0) dst.set(this.bytes.subarray(at, at + n));
    return n;
  }

  /** Writes src at offset `at`; returns its length. */
  write(src, { at }) {
    this.#grow(at + src.length);
    this.bytes.set(src, at);
    return src.length;
  }

  truncate(size) {
    if (size < this.size) this.bytes.fill(0, size, this.size);
    this.#grow(size);
    this.size = size;
  }

  #grow(size) {
    if (size > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(size, this.bytes.length * 2));
      bigger.set(this.contents());
      this.bytes = bigger;
    }
    if (size > this.size) this.size = size;
  }
}
