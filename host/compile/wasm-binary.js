// Reading a wasm module's binary: its sections, the layout of its functions, and the
// immediates of each instruction, for the passes that rewrite code (cli/build/stack-check.js,
// host/compile/liftoff-wait-calls.js).

export class Reader {
  constructor(bytes, pos = 0) { this.bytes = bytes; this.pos = pos; }
  byte() {
    if (this.pos >= this.bytes.length) throw new Error('unexpected end of the module');
    return this.bytes[this.pos++];
  }
  u32() {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
    }
  }
  sleb() { // skips a signed LEB of any width (i32/i64 constants, block types)
    while (this.byte() & 0x80);
  }
  skip(n) { this.pos += n; }
  name() {
    const len = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + len));
    this.pos += len;
    return text;
  }
}

export function uleb(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value) b |= 0x80;
    out.push(b);
  } while (value);
  return out;
}

export function sections(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error('not a wasm module');
  }
  const list = [];
  const r = new Reader(bytes, 8);
  while (r.pos < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    if (start + size > bytes.length) throw new Error('unexpected end of the module');
    let name = null;
    if (id === 0) name = new Reader(bytes, start).name();
    list.push({ id, name, start, end: start + size });
    r.pos = start + size;
  }
  return list;
}

// Immediates of one instruction after its opcode byte; throws on opcodes it does not know, so
// a module using a newer proposal fails the pass clearly instead of being rewritten wrongly.
export function skipImmediates(r, op) {
  const memarg = () => { if (r.u32() & 0x40) r.u32(); r.u32(); };
  if (op >= 0x28 && op <= 0x3e) return memarg();
  if ((op >= 0x45 && op <= 0xc4) || [0x00, 0x01, 0x05, 0x0a, 0x0b, 0x0f, 0x19, 0x1a, 0x1b, 0xd1].includes(op)) return;
  switch (op) {
    case 0x02: case 0x03: case 0x04: case 0x06: return r.sleb(); // block type (0x06: legacy try)
    case 0x07: case 0x08: case 0x09: case 0x18: return r.u32(); // catch/throw tag, rethrow/delegate depth
    case 0x1f: { // try_table: block type, then catch clauses (kind; tag for kinds 0-1; label)
      r.sleb();
      for (let n = r.u32(); n > 0; n--) { if (r.byte() < 2) r.u32(); r.u32(); }
      return;
    }
    case 0x0c: case 0x0d: case 0x10: case 0x12: case 0x20: case 0x21: case 0x22: case 0x23: case 0x24:
    case 0x25: case 0x26: case 0x3f: case 0x40: case 0xd2: return r.u32();
    case 0x0e: { const n = r.u32(); for (let i = 0; i <= n; i++) r.u32(); return; }
    case 0x11: case 0x13: r.u32(); r.u32(); return;
    case 0x1c: r.skip(r.u32()); return; // select t*: one byte per value type
    case 0x41: case 0x42: return r.sleb();
    case 0x43: return r.skip(4);
    case 0x44: return r.skip(8);
    case 0xd0: return r.sleb(); // ref.null heap type
    case 0xfc: { // saturating truncation, bulk memory, tables
      const sub = r.u32();
      if (sub <= 7) return;
      if ([8, 10, 12, 14].includes(sub)) { r.u32(); r.u32(); return; }
      if (sub <= 17) return r.u32();
      break;
    }
    case 0xfe: { // threads
      const sub = r.u32();
      if (sub === 0x03) return r.skip(1); // atomic.fence
      if (sub <= 0x4e) return memarg();
      break;
    }
    case 0xfd: { // SIMD
      const sub = r.u32();
      if (sub <= 11 || sub === 92 || sub === 93) return memarg();
      if (sub === 12 || sub === 13) return r.skip(16);
      if (sub >= 21 && sub <= 34) return r.skip(1);
      if (sub >= 84 && sub <= 91) { memarg(); r.skip(1); return; }
      return;
    }
    default: break;
  }
  throw new Error(`wasm: unsupported instruction 0x${op.toString(16)} at byte ${r.pos}`);
}

// The function's locals and where its instructions begin.
export function bodyLayout(bytes, start) {
  const r = new Reader(bytes, start);
  const groups = r.u32();
  const firstGroup = r.pos;
  let locals = 0;
  for (let i = 0; i < groups; i++) { locals += r.u32(); r.byte(); }
  return { groups, firstGroup, locals, code: r.pos };
}

export function moduleLayout(bytes, list) {
  const find = (id) => list.find((s) => s.id === id);
  const types = []; // parameter count of each function type
  if (find(1)) {
    const r = new Reader(bytes, find(1).start);
    for (let n = r.u32(), i = 0; i < n; i++) {
      if (r.byte() !== 0x60) throw new Error('wasm: unsupported type section entry');
      const params = r.u32();
      r.skip(params);
      r.skip(r.u32());
      types.push(params);
    }
  }
  let importedFuncs = 0;
  let importedGlobals = 0;
  if (find(2)) {
    const r = new Reader(bytes, find(2).start);
    for (let n = r.u32(), i = 0; i < n; i++) {
      r.name(); r.name();
      const kind = r.byte();
      if (kind === 0) { importedFuncs++; r.u32(); }
      else if (kind === 1) { r.byte(); const flags = r.byte(); r.u32(); if (flags & 1) r.u32(); }
      else if (kind === 2) { const flags = r.byte(); r.u32(); if (flags & 1) r.u32(); }
      else if (kind === 3) { importedGlobals++; r.byte(); r.byte(); }
      else throw new Error('wasm: unsupported import kind');
    }
  }
  const funcTypes = [];
  if (find(3)) {
    const r = new Reader(bytes, find(3).start);
    for (let n = r.u32(), i = 0; i < n; i++) funcTypes.push(r.u32());
  }
  const exports = new Map();
  if (find(7)) {
    const r = new Reader(bytes, find(7).start);
    for (let n = r.u32(), i = 0; i < n; i++) {
      const name = r.name();
      const kind = r.byte();
      const index = r.u32();
      if (kind === 0) exports.set(name, index);
    }
  }
  const bodies = [];
  const codeSection = find(10);
  if (codeSection) {
    const r = new Reader(bytes, codeSection.start);
    for (let n = r.u32(), i = 0; i < n; i++) {
      const entry = r.pos;
      const size = r.u32();
      bodies.push({ entry, start: r.pos, end: r.pos + size });
      r.skip(size);
    }
  }
  return { types, importedFuncs, importedGlobals, funcTypes, exports, bodies, codeSection, globalSection: find(6) };
}

export function concat(parts) {
  const result = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { result.set(p, at); at += p.length; }
  return result;
}
