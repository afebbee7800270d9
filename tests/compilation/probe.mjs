// Run with node --allow-natives-syntax: compiles small wasm modules through the host API in the
// modes given as arguments (MODE:NOPS, NOPS the size of the one function's body) and prints, per
// module, the mode the host reports, whether V8 has compiled the function before its first call
// and the compilers the host reports: e.g. `lazy uncompiled tiered` or `eager compiled optimized`,
// or `refused: WHY`. MODE `plain` compiles with WebAssembly.compile itself, under this process's
// V8 flags, and prints which compiler V8 used at the first call: `plain liftoff` or `plain
// optimized`. MODE
// `cached` compiles eagerly with the code cache in $PROBE_CODE_CACHE and prints what the cache
// did, the function's state and its compiler at the first call: e.g. `hit compiled optimized`.
// MODE `make` (in a Node with V8's defaults) compiles with that cache, has the module's TurboFan
// code made for this process as `spindle run` does after a miss, waits for it and prints what the
// cache did: `miss, made`; a later `cached` in a Node started alike then finds it.
import { compile } from '../../host/index.js';
import { cachedCode } from '../../host/compile/compilation.js';
import { turbofanMaker } from '../../cli/common/turbofan-maker.js';
import { moduleWithBody, probeImports } from '../lib/probe-module.js';

const imports = probeImports();
const isUncompiled = new Function('f', 'return %IsUncompiledWasmFunction(f)');
const isLiftoff = new Function('f', 'return %IsLiftoffFunction(f)');
for (const arg of process.argv.slice(2)) {
  const [mode, nops] = arg.split(':');
  if (mode === 'plain') {
    // (Node 24 and later exit during an eager compile unless something holds the event loop)
    const hold = setInterval(() => {}, 1 << 30);
    const { exports } = await WebAssembly.instantiate(await WebAssembly.compile(moduleWithBody(Number(nops))), imports);
    clearInterval(hold);
    exports.f();
    console.log(`plain ${isLiftoff(exports.f) ? 'liftoff' : 'optimized'}`);
    continue;
  }
  if (mode === 'cached') {
    const compiled = await compile(moduleWithBody(Number(nops)), { codeCache: process.env.PROBE_CODE_CACHE });
    const { exports } = await WebAssembly.instantiate(compiled.module, imports);
    const state = isUncompiled(exports.f) ? 'uncompiled' : 'compiled';
    if (exports.f() !== 7) throw new Error('the probe function returned a wrong value');
    console.log(`${compiled.codeCache} ${state} ${isLiftoff(exports.f) ? 'liftoff' : 'optimized'}`);
    continue;
  }
  if (mode === 'make') {
    const { existsSync, writeFileSync } = await import('node:fs');
    const dir = process.env.PROBE_CODE_CACHE;
    const wire = moduleWithBody(Number(nops));
    const compiled = await compile(wire, { codeCache: dir });
    const entry = await cachedCode(wire, dir);
    writeFileSync(`${dir}/probe-${nops}.wasm`, wire);
    turbofanMaker(`${dir}/probe-${nops}.wasm`, entry)();
    for (let waited = 0; !existsSync(`${dir}/${entry.key}.code`) && waited < 60000; waited += 100) await new Promise((done) => setTimeout(done, 100));
    console.log(`${compiled.codeCache}, ${existsSync(`${dir}/${entry.key}.code`) ? 'made' : 'not made'}`);
    continue;
  }
  // Distinct bytes per module: V8 hands out one compiled module per identical bytes in a process.
  let compiled;
  try {
    compiled = await compile(moduleWithBody(Number(nops)), mode === '-' ? {} : { compilation: mode });
  } catch (err) {
    console.log(`refused: ${err.message}`);
    continue;
  }
  const { exports } = await WebAssembly.instantiate(compiled.module, imports);
  const state = isUncompiled(exports.f) ? 'uncompiled' : 'compiled';
  if (exports.f() !== 7) throw new Error('the probe function returned a wrong value');
  console.log(`${compiled.compilation} ${state} ${compiled.tiers}`);
}
