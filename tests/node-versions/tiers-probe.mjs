// Run with node --allow-natives-syntax: compiles a one-function module through the host API
// (so the host's compiler flags for this Node are set), calls the function once and prints which
// V8 compiler produced the code it ran, then which one holds its code once any background
// re-compile is done, without further calls: `liftoff then liftoff` (dynamic tiering: a function
// run once stays in Liftoff), `turbofan then turbofan`, or `liftoff then turbofan` (every
// function re-compiled in the background; the first may also be `turbofan` if that was quick).
import { compileModule } from '../../host/compilation.js';

// (func (export "f") (result i32) i32.const 7)
const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7f, 3, 2, 1, 0,
  7, 5, 1, 1, 0x66, 0, 0, 10, 6, 1, 4, 0, 0x41, 7, 0x0b]);
const { module } = await compileModule(bytes, process.argv[2] ?? 'lazy');
const { exports } = await WebAssembly.instantiate(module);
if (exports.f() !== 7) throw new Error('the probe function returned a wrong value');
const isLiftoff = new Function('f', 'return %IsLiftoffFunction(f)');
const isTurboFan = new Function('f', 'return %IsTurboFanFunction(f)');
const compiler = () => (isLiftoff(exports.f) ? 'liftoff' : isTurboFan(exports.f) ? 'turbofan' : 'neither');
const first = compiler();
// A background re-compile of one function ends within milliseconds; wait up to 2 s for it.
const deadline = performance.now() + 2000;
while (compiler() === 'liftoff' && performance.now() < deadline) await new Promise((done) => setTimeout(done, 20));
console.log(`${first} then ${compiler()}`);
