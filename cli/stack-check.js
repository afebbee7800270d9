// The C stack check, a post-link pass of `spindle cc` (docs/TOOLCHAIN.md). Every
// `global.set $__stack_pointer` in the code section (and, in functions that never write it, every
// frame computed from it: see stackPointerUses) becomes
//     local.tee $t  global.get $limit  i32.sub  global.get $size  i32.gt_u
//     if  call $overflow  end  local.get $t  global.set $__stack_pointer
// where $limit and $size are runtime/core/stack_check.c's per-instance (so per-thread) globals
// holding the running thread's stack bounds, and $overflow reports through the host (it never
// returns: its C body ends in `unreachable` after the host call). The code
// section changes (one scratch local per rewritten function) and $size's initial value becomes
// 0xffffffff (unchecked); function, type and global indices stay as they are, so the name
// section and every other section stay valid.
// DWARF sections describe code offsets that no longer hold, so they are dropped (see
// stackCheckWanted: a -g build is not rewritten).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { wantsDebugInfo } from './debug-info.js';

const OVERFLOW_EXPORT = '__spindle_stack_overflow';
const GLOBALS_EXPORT = '__spindle_stack_check_globals';

/** Link flags that keep stack_check.c in every module (its exports force the archive member). */
export const stackCheckLinkArgs = [`-Wl,--export=${OVERFLOW_EXPORT},--export=${GLOBALS_EXPORT}`];

/** Whether a link with these options gets the check: not --bare (no runtime), not turned off,
 * and not a -g build (its DWARF would no longer match the code). */
export function stackCheckWanted(opts) {
  return !opts.bare && opts.stackCheck && !wantsDebugInfo(opts.clangArgs);
}

class Reader {
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

function uleb(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value) b |= 0x80;
    out.push(b);
  } while (value);
  return out;
}

function sections(bytes) {
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
function skipImmediates(r, op) {
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
  throw new Error(`stack check: unsupported instruction 0x${op.toString(16)} at byte ${r.pos}`);
}

// Where a function body moves or extends the stack: every `global.set $sp` ([start, end) of the
// instruction), and every `global.get $sp  i32.const N  i32.sub` (the position after it). A
// function that calls nothing does not write its frame back to $sp (LLVM only computes the
// frame's base), so for such a function the frame computations are what must be checked.
// An epilogue's `i32.const N  i32.add  global.set $sp` (N >= 0) gives back a frame whose
// allocation was checked: it cannot cross the limit, so it is left as it is (half the writes).
function stackPointerUses(bytes, from, to, sp) {
  const sets = [];
  const frames = [];
  const r = new Reader(bytes, from);
  let previous = null; // the instruction before this one: { op, end }
  let beforePrevious = null;
  while (r.pos < to) {
    const at = r.pos;
    const op = r.byte();
    if (op === 0x24) {
      const freesFrame = previous?.op === 0x6a && beforePrevious?.op === 0x41 && !(bytes[beforePrevious.end - 1] & 0x40);
      if (r.u32() === sp && !freesFrame) sets.push([at, r.pos]);
    } else if (op === 0x23) {
      if (r.u32() === sp && bytes[r.pos] === 0x41) {
        const next = new Reader(bytes, r.pos + 1);
        next.sleb();
        if (bytes[next.pos] === 0x6b) frames.push([next.pos + 1, next.pos + 1]);
      }
    } else {
      skipImmediates(r, op);
    }
    beforePrevious = previous;
    previous = { op, end: r.pos };
  }
  return sets.length ? sets.map(([start, end]) => ({ start, end, set: true })) : frames.map(([start, end]) => ({ start, end, set: false }));
}

// The function's locals and where its instructions begin.
function bodyLayout(bytes, start) {
  const r = new Reader(bytes, start);
  const groups = r.u32();
  const firstGroup = r.pos;
  let locals = 0;
  for (let i = 0; i < groups; i++) { locals += r.u32(); r.byte(); }
  return { groups, firstGroup, locals, code: r.pos };
}

// The global indices that stack_check.c's marker function reads: __stack_pointer, the limit, the size.
function markerGlobals(bytes, body) {
  const { code } = bodyLayout(bytes, body.start);
  const r = new Reader(bytes, code);
  const globals = [];
  while (r.pos < body.end && globals.length < 3) {
    const op = r.byte();
    if (op === 0x23) globals.push(r.u32());
    else skipImmediates(r, op);
  }
  if (globals.length < 3) throw new Error(`stack check: ${GLOBALS_EXPORT} does not read the three globals`);
  return { stackPointer: globals[0], limit: globals[1], size: globals[2] };
}

// The global section with global `index` (in the whole index space) starting at 0xffffffff.
function unboundedSize(bytes, section, importedGlobals, index) {
  const r = new Reader(bytes, section.start);
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const type = r.byte();
    r.byte(); // mutability
    const init = r.pos;
    for (let op = r.byte(); op !== 0x0b; op = r.byte()) skipImmediates(r, op);
    if (i + importedGlobals === index) {
      if (type !== 0x7f) throw new Error('stack check: the size global is not an i32');
      return concat([bytes.subarray(section.start, init), Uint8Array.of(0x41, 0x7f, 0x0b), bytes.subarray(r.pos, section.end)]);
    }
  }
  throw new Error('stack check: the size global is not defined in the module');
}

function moduleLayout(bytes, list) {
  const find = (id) => list.find((s) => s.id === id);
  const types = []; // parameter count of each function type
  if (find(1)) {
    const r = new Reader(bytes, find(1).start);
    for (let n = r.u32(), i = 0; i < n; i++) {
      if (r.byte() !== 0x60) throw new Error('stack check: unsupported type section entry');
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
      else throw new Error('stack check: unsupported import kind');
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

function concat(parts) {
  const result = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { result.set(p, at); at += p.length; }
  return result;
}

// Each use gets the check of the stack pointer value on top of the operand stack; a
// `global.set` is replaced (and written again after the check), a frame computation is followed.
function rewriteBody(bytes, body, params, uses, g) {
  const { groups, firstGroup, locals, code } = bodyLayout(bytes, body.start);
  const scratch = uleb(params + locals);
  const check = [0x22, ...scratch, 0x23, ...uleb(g.limit), 0x6b, 0x23, ...uleb(g.size), 0x4b, 0x04, 0x40,
    0x10, ...uleb(g.overflow), 0x0b, 0x20, ...scratch];
  const checkedSet = Uint8Array.from([...check, 0x24, ...uleb(g.stackPointer)]);
  const checkedFrame = Uint8Array.from(check);
  const parts = [Uint8Array.from(uleb(groups + 1)), bytes.subarray(firstGroup, code), Uint8Array.of(1, 0x7f)];
  let at = code;
  for (const use of uses) {
    parts.push(bytes.subarray(at, use.start), use.set ? checkedSet : checkedFrame);
    at = use.end;
  }
  parts.push(bytes.subarray(at, body.end));
  const fn = concat(parts);
  return concat([Uint8Array.from(uleb(fn.length)), fn]);
}

/**
 * Rewrites a linked module's bytes; returns the new bytes and how many stack-pointer writes
 * were checked. The module must contain runtime/core/stack_check.c (stackCheckLinkArgs).
 */
export function instrumentStackChecks(bytes) {
  const list = sections(bytes);
  const m = moduleLayout(bytes, list);
  const bodyOf = (name) => {
    const index = m.exports.get(name);
    if (index === undefined) throw new Error(`stack check: the module does not export ${name} (runtime/core missing?)`);
    return { index, body: m.bodies[index - m.importedFuncs] };
  };
  const overflow = bodyOf(OVERFLOW_EXPORT);
  const g = { ...markerGlobals(bytes, bodyOf(GLOBALS_EXPORT).body), overflow: overflow.index };
  if (stackPointerUses(bytes, bodyLayout(bytes, overflow.body.start).code, overflow.body.end, g.stackPointer).length) {
    throw new Error(`stack check: ${OVERFLOW_EXPORT} moves the stack pointer`);
  }
  let checked = 0;
  const newBodies = m.bodies.map((body, i) => {
    const index = i + m.importedFuncs;
    const uses = index === overflow.index ? []
      : stackPointerUses(bytes, bodyLayout(bytes, body.start).code, body.end, g.stackPointer);
    if (!uses.length) return bytes.subarray(body.entry, body.end);
    checked += uses.length;
    return rewriteBody(bytes, body, m.types[m.funcTypes[i]], uses, g);
  });
  const code = concat([Uint8Array.from(uleb(m.bodies.length)), ...newBodies]);
  const parts = [bytes.subarray(0, 8)];
  for (const s of list) {
    if (s.id === 0 && s.name.startsWith('.debug_')) continue; // offsets into the old code
    const payload = s === m.codeSection ? code
      : s === m.globalSection ? unboundedSize(bytes, s, m.importedGlobals, g.size) : bytes.subarray(s.start, s.end);
    parts.push(Uint8Array.from([s.id, ...uleb(payload.length)]), payload);
  }
  return { bytes: concat(parts), checked };
}

/** The post-link step: rewrites the module file in place. A module it cannot rewrite is
 * removed (so make does not take it as built) and the error says how to build without it. */
export function addStackCheck(wasmPath) {
  try {
    writeFileSync(wasmPath, instrumentStackChecks(readFileSync(wasmPath)).bytes);
  } catch (err) {
    rmSync(wasmPath, { force: true });
    throw new Error(`${wasmPath}: ${err.message} (link with --no-stack-check to leave the module unchecked)`);
  }
}
