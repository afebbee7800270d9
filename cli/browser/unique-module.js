// A module's bytes made unique to one run: V8 keeps a compiled module for as long as one with the
// same bytes lives in the process and gives a new compile of those bytes its code, tiered up
// where the last run ran it hot. A page loaded by a user compiles the module fresh, so the
// bench's --as-user browser runs each get bytes of their own (docs/PERFORMANCE.md).

/** `bytes` with a custom section (which changes nothing a module does) naming `tag`. */
export function uniqueModule(bytes, tag) {
  const name = Buffer.from('spindle.run');
  const payload = Buffer.concat([leb128(name.length), name, Buffer.from(String(tag))]);
  return Buffer.concat([bytes, Buffer.from([0]), leb128(payload.length), payload]);
}

function leb128(n) {
  const out = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n ? low | 0x80 : low);
  } while (n);
  return Buffer.from(out);
}
