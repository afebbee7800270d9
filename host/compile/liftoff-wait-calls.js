// Node 20's Liftoff (V8 11.3) loses values it holds in registers across a memory.atomic.wait32 or
// wait64: after the wait, a local or a value lower on the operand stack reads back stale, and a
// park loop spins on a wrong address for good (docs/HOST.md, "What Node 20's Liftoff gets
// wrong"). Across a call it keeps them (everything live is spilled before a call). So each wait
// instruction becomes a call of a small function that does only that wait:
//     (func (param i32 i32|i64 i64) (result i32) local.get 0 local.get 1 local.get 2 <the wait>)
// one per distinct wait (opcode and memarg). The new types and functions go after the existing
// ones, so no index changes and the name section stays valid; DWARF code offsets no longer hold.
import { bodyLayout, concat, moduleLayout, Reader, sections, skipImmediates, uleb } from './wasm-binary.js';

const THREADS_PREFIX = 0xfe;
const WAIT32 = 0x01;
const WAIT64 = 0x02;
const I32 = 0x7f;
const I64 = 0x7e;

// Whether the body's bytes contain a wait's opcode at all: decoding every instruction took
// 10-15 ms for a 60-90 KB module, and most functions hold no threads instruction.
function mayWait(bytes, body) {
  for (let i = body.start; i < body.end - 1; i++) {
    if (bytes[i] === THREADS_PREFIX && (bytes[i + 1] === WAIT32 || bytes[i + 1] === WAIT64)) return true;
  }
  return false;
}

// Where each wait instruction of a body lies: [{ start, end, wait }], wait = its bytes.
function waitsIn(bytes, body) {
  if (!mayWait(bytes, body)) return [];
  const r = new Reader(bytes, bodyLayout(bytes, body.start).code);
  const found = [];
  while (r.pos < body.end) {
    const start = r.pos;
    const op = r.byte();
    if (op === THREADS_PREFIX) {
      const sub = new Reader(bytes, r.pos).u32();
      skipImmediates(r, op);
      if (sub === WAIT32 || sub === WAIT64) found.push({ start, end: r.pos, wait: bytes.subarray(start, r.pos) });
    } else {
      skipImmediates(r, op);
    }
  }
  return found;
}

// A section with its id and size in front of `content`.
const section = (id, content) => concat([Uint8Array.of(id), Uint8Array.from(uleb(content.length)), content]);
// A vector section's content: the new count, the old entries, then the added ones.
const extendedVector = (bytes, s, oldCount, added) => {
  const r = new Reader(bytes, s.start);
  r.u32();
  return concat([Uint8Array.from(uleb(oldCount + added.length)), bytes.subarray(r.pos, s.end), ...added]);
};

/**
 * The module's bytes with every memory.atomic.wait32/wait64 moved into a function of its own,
 * or `bytes` itself when it has none. Throws on a module it cannot read (an unknown instruction).
 */
export function moveWaitsIntoCalls(bytes) {
  const list = sections(bytes);
  const m = moduleLayout(bytes, list);
  const waits = m.bodies.map((body) => waitsIn(bytes, body));
  if (waits.every((w) => w.length === 0)) return bytes;
  const typeSection = list.find((s) => s.id === 1);
  const funcSection = list.find((s) => s.id === 3);
  const waitType = { [WAIT32]: m.types.length, [WAIT64]: m.types.length + 1 };
  const helperIndex = new Map(); // the wait's bytes (as text) -> its function's index
  const helpers = [];
  const callOf = (wait) => {
    const key = wait.join(',');
    if (!helperIndex.has(key)) {
      helperIndex.set(key, m.importedFuncs + m.bodies.length + helpers.length);
      helpers.push(wait);
    }
    return Uint8Array.from([0x10, ...uleb(helperIndex.get(key))]);
  };
  const bodies = m.bodies.map((body, i) => {
    if (!waits[i].length) return bytes.subarray(body.entry, body.end);
    const parts = [];
    let at = body.start;
    for (const w of waits[i]) {
      parts.push(bytes.subarray(at, w.start), callOf(w.wait));
      at = w.end;
    }
    parts.push(bytes.subarray(at, body.end));
    const fn = concat(parts);
    return concat([Uint8Array.from(uleb(fn.length)), fn]);
  });
  const helperBodies = helpers.map((wait) => {
    const fn = Uint8Array.from([0, 0x20, 0, 0x20, 1, 0x20, 2, ...wait, 0x0b]);
    return concat([Uint8Array.from(uleb(fn.length)), fn]);
  });
  const helperTypes = helpers.map((wait) => Uint8Array.from(uleb(waitType[new Reader(wait, 1).u32()])));
  const replaced = {
    1: extendedVector(bytes, typeSection, m.types.length, [
      Uint8Array.of(0x60, 3, I32, I32, I64, 1, I32), Uint8Array.of(0x60, 3, I32, I64, I64, 1, I32)]),
    3: extendedVector(bytes, funcSection, m.funcTypes.length, helperTypes),
    10: concat([Uint8Array.from(uleb(bodies.length + helperBodies.length)), ...bodies, ...helperBodies]),
  };
  return concat([bytes.subarray(0, 8), ...list.map((s) => (replaced[s.id] && s.id !== 0
    ? section(s.id, replaced[s.id])
    : bytes.subarray(sectionHeaderStart(bytes, s), s.end)))]);
}

// Where a section's id byte is: before its size LEB, which ends at s.start.
function sectionHeaderStart(bytes, s) {
  let at = s.start - 1; // the size LEB's last byte
  while (bytes[at - 1] & 0x80) at--;
  return at - 1;
}
