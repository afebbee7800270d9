// Run with node --allow-natives-syntax: compiles small wasm modules through the host API in the
// modes given as arguments (MODE:NOPS, NOPS the size of the one function's body) and prints, per
// module, the mode the host reports and whether V8 has compiled the function before its first
// call: `lazy uncompiled` or `eager compiled`. MODE `plain` compiles with WebAssembly.compile
// itself, under the V8 flags the host left, and prints which compiler V8 used at the first call:
// `plain liftoff` (V8's defaults) or `plain optimized` (the host's tier flags still set).
import { compile } from '../../host/index.js';

const leb = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
const section = (id, content) => [id, ...leb(content.length), ...content];
const name = (s) => [...leb(s.length), ...new TextEncoder().encode(s)];

// (import "env" "memory" (memory 1 1 shared)) (func (export "f") (result i32) nop*N i32.const 7)
function moduleWithBody(nops) {
  const body = [0, ...new Array(nops).fill(0x01), 0x41, 7, 0x0b];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 0, 1, 0x7f]),
    ...section(2, [1, ...name('env'), ...name('memory'), 2, 3, 1, 1]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('f'), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body])]);
}

const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
const isUncompiled = new Function('f', 'return %IsUncompiledWasmFunction(f)');
const isLiftoff = new Function('f', 'return %IsLiftoffFunction(f)');
for (const arg of process.argv.slice(2)) {
  const [mode, nops] = arg.split(':');
  if (mode === 'plain') {
    const { exports } = await WebAssembly.instantiate(await WebAssembly.compile(moduleWithBody(Number(nops))), { env: { memory } });
    exports.f();
    console.log(`plain ${isLiftoff(exports.f) ? 'liftoff' : 'optimized'}`);
    continue;
  }
  // Distinct bytes per module: V8 hands out one compiled module per identical bytes in a process.
  const compiled = await compile(moduleWithBody(Number(nops)), mode === '-' ? {} : { compilation: mode });
  const { exports } = await WebAssembly.instantiate(compiled.module, { env: { memory } });
  const state = isUncompiled(exports.f) ? 'uncompiled' : 'compiled';
  if (exports.f() !== 7) throw new Error('the probe function returned a wrong value');
  console.log(`${compiled.compilation} ${state}`);
}
