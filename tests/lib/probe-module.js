// A one-function wasm module for the compiler probes (tests/compilation, tests/node-versions):
// (import "env" "memory" (memory 1 1 shared)) (func (export "f") (result i32) nop*N i32.const 7).
// The nops set the size of its code section, and distinct sizes give distinct bytes (V8 hands out
// one compiled module per identical bytes in a process).
const leb = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
const section = (id, content) => [id, ...leb(content.length), ...content];
const name = (s) => [...leb(s.length), ...new TextEncoder().encode(s)];

/** The module's bytes, with `nops` nops in its function's body. */
export function moduleWithBody(nops) {
  const body = [0, ...new Array(nops).fill(0x01), 0x41, 7, 0x0b];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 0, 1, 0x7f]),
    ...section(2, [1, ...name('env'), ...name('memory'), 2, 3, 1, 1]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('f'), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body])]);
}

/** The shared memory the module imports, as its imports object. */
export const probeImports = () => ({ env: { memory: new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }) } });
