// Standard input given up front as bytes (host API `stdin: Uint8Array`), shared by all threads:
// a SharedArrayBuffer holding [read offset, length, bytes...], consumed atomically.

export function stdinBytesBuffer(bytes) {
  const sab = new SharedArrayBuffer(8 + bytes.length);
  new Int32Array(sab, 0, 2).set([0, bytes.length]);
  new Uint8Array(sab, 8).set(bytes);
  return sab;
}

export function stdinFromBytes(sab) {
  const header = new Int32Array(sab, 0, 2);
  const data = new Uint8Array(sab, 8);
  return (max) => {
    for (;;) {
      const at = Atomics.load(header, 0);
      const n = Math.min(max, header[1] - at);
      if (Atomics.compareExchange(header, 0, at, at + n) === at) return data.slice(at, at + n);
    }
  };
}
