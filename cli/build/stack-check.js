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
import { wantsDebugInfo } from './debug-info.js';
import { bodyLayout, concat, moduleLayout, Reader, sections, skipImmediates, uleb } from '../../host/compile/wasm-binary.js';

const { readFileSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');

const OVERFLOW_EXPORT = '__spindle_stack_overflow';
const GLOBALS_EXPORT = '__spindle_stack_check_globals';

/** Link flags that keep stack_check.c in every module (its exports force the archive member). */
export const stackCheckLinkArgs = [`-Wl,--export=${OVERFLOW_EXPORT},--export=${GLOBALS_EXPORT}`];

/** Whether a link with these options gets the check: not --bare (no runtime), not turned off,
 * and not a -g build (its DWARF would no longer match the code). */
export function stackCheckWanted(opts) {
  return !opts.bare && opts.stackCheck && !wantsDebugInfo(opts.clangArgs);
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
