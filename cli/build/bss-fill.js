// Drops the zeroing of .bss from a linked module's start function, a post-link pass of
// `spindle cc` (docs/TOOLCHAIN.md). A module whose memory is imported and shared gets its data
// from wasm-ld's `__wasm_init_memory`, the start function, which the first instance runs once:
// it copies the data segments in, then zeroes .bss with one `memory.fill`, since an imported
// memory could hold anything. But every memory a host makes is new, and a new WebAssembly memory
// is all zeros (the spec's and the JS API's), so the fill only touches each page of .bss: 1.2 MiB
// for the runtime alone (the page pool's map), ~0.6 ms of every start and that much resident
// memory, where a native program's .bss costs nothing until it is used. A later instance (a
// thread) never runs the fill: the same start function sees the memory initialized and skips it.
// The fill becomes three `drop`s, the same three bytes, so no offset moves (DWARF stays valid).
import { bodyLayout, moduleLayout, Reader, sections, skipImmediates } from '../../host/compile/wasm-binary.js';
import { importedMemory } from '../../host/compile/module-info.js';

const { readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');

const I32_CONST = 0x41;
const MEMORY_FILL = [0xfc, 0x0b, 0x00]; // memory.fill of memory 0
const DROP = 0x1a;
const START_SECTION = 8;

/**
 * Where the start function of `bytes` zeroes memory with constant operands (`i32.const dest,
 * i32.const 0, i32.const size, memory.fill`): the fill's offset in the module, for each.
 */
export function bssFills(bytes) {
  const memory = importedMemory(bytes);
  if (!memory?.shared) return [];
  const list = sections(bytes);
  const start = list.find((s) => s.id === START_SECTION);
  if (!start) return [];
  const layout = moduleLayout(bytes, list);
  const body = layout.bodies[new Reader(bytes, start.start).u32() - layout.importedFuncs];
  if (!body) return [];
  const fills = [];
  const recent = []; // where the last three instructions began
  const r = new Reader(bytes, bodyLayout(bytes, body.start).code);
  while (r.pos < body.end) {
    const at = r.pos;
    const op = r.byte();
    skipImmediates(r, op);
    // (the value: `i32.const 0` as wasm-ld writes it, two bytes)
    const constants = recent.length === 3 && recent.every((p) => bytes[p] === I32_CONST) && recent[2] - recent[1] === 2 && bytes[recent[1] + 1] === 0;
    if (constants && r.pos === at + MEMORY_FILL.length && MEMORY_FILL.every((b, i) => bytes[at + i] === b)) fills.push(at);
    recent.push(at);
    if (recent.length > 3) recent.shift();
  }
  return fills;
}

/** Rewrites the module at `wasmPath` without its start function's zero fills; how many it dropped. */
export function dropBssFill(wasmPath) {
  const bytes = readFileSync(wasmPath);
  const fills = bssFills(bytes);
  for (const at of fills) bytes.fill(DROP, at, at + MEMORY_FILL.length);
  if (fills.length) writeFileSync(wasmPath, bytes);
  return fills.length;
}
