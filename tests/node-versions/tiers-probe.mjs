// Run with node --allow-natives-syntax FLAGS PROBE MODE SIZE: compiles a one-function module
// through the host API under this Node's flags, `small` or `big` (its code section at the size
// from which `spindle run` may choose Liftoff + tiering), calls the function
// once and prints which V8 compiler produced the code it ran, then which one holds its code once
// any background re-compile is done, without further calls: `liftoff then liftoff` (dynamic
// tiering: a function run once stays in Liftoff), `turbofan then turbofan`, or `liftoff then
// turbofan` (every function re-compiled in the background; the first may also be `turbofan` if
// that was quick). A second line names the compilers the host reported: `tiers NAME`.
import { compileModule } from '../../host/compile/compilation.js';
import { TURBOFAN_CODE_LIMIT } from '../../host/compile/wasm-tiers.js';
import { moduleWithBody, probeImports } from '../lib/probe-module.js';

const [mode = 'lazy', size = 'small'] = process.argv.slice(2);
const bytes = moduleWithBody(size === 'big' ? TURBOFAN_CODE_LIMIT : 0);
const { module, tiers } = await compileModule(bytes, mode);
const { exports } = await WebAssembly.instantiate(module, probeImports());
if (exports.f() !== 7) throw new Error('the probe function returned a wrong value');
const isLiftoff = new Function('f', 'return %IsLiftoffFunction(f)');
const isTurboFan = new Function('f', 'return %IsTurboFanFunction(f)');
const compiler = () => (isLiftoff(exports.f) ? 'liftoff' : isTurboFan(exports.f) ? 'turbofan' : 'neither');
const first = compiler();
// A background re-compile of one function ends within milliseconds; wait up to 2 s for it.
const deadline = performance.now() + 2000;
while (compiler() === 'liftoff' && performance.now() < deadline) await new Promise((done) => setTimeout(done, 20));
console.log(`${first} then ${compiler()}\ntiers ${tiers}`);
