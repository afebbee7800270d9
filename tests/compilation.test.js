// When V8 compiles a module's functions (host/compilation.js): the host API's `compilation`
// option and `spindle run --compile` are honoured, checked with V8's own view of a function
// (compiled before its first call or not), `auto` is eager, the compilers are chosen by code
// size (host/wasm-tiers.js), and V8's flags are put back after an eager compile (not after a
// lazy one, whose functions compile later under them).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { compile } from '../host/index.js';
import { TURBOFAN_CODE_LIMIT, usesLiftoff, wasmTiersFor } from '../host/wasm-tiers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const probe = join(root, 'tests', 'compilation', 'probe.mjs');
const out = join(root, 'build', 'tests', 'compilation');
const hello = join(out, 'hello.wasm');
// Function bodies of the probe's modules (tests/lib/probe-module.js) under and over the code
// size that decides the compilers on Node 22 and 24; this Node's choice for each.
const bigBody = TURBOFAN_CODE_LIMIT;
const tiersOf = (nops) => wasmTiersFor(nops).tiers;

const probeLines = async (...modules) => {
  const r = await exec(process.execPath, ['--allow-natives-syntax', probe, ...modules]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim().split('\n');
};

describe('compilation mode', () => {
  before(async () => {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'hello.c'), '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n');
    const r = await exec(spindle, ['cc', '-O2', join(out, 'hello.c'), '-o', hello]);
    assert.equal(r.code, 0, r.stderr);
  });

  it('compiles every function before the first call with eager, none with lazy', async () => {
    assert.deepEqual(await probeLines('eager:10', 'lazy:11', 'eager:12'),
      [`eager compiled ${tiersOf(10)}`, `lazy uncompiled ${tiersOf(11)}`, `eager compiled ${tiersOf(12)}`]);
  });

  it('auto (the default) is eager for small and big modules, and picks their compilers by code size', async () => {
    assert.deepEqual(await probeLines('-:10', 'auto:13', `-:${bigBody}`),
      [`eager compiled ${tiersOf(10)}`, `eager compiled ${tiersOf(13)}`, `eager compiled ${tiersOf(bigBody)}`]);
    if (!process.env.SPINDLE_WASM_TIERS) {
      const node = Number(process.versions.node.split('.')[0]);
      assert.notEqual(tiersOf(10), 'tiered'); // TurboFan for small modules on every version
      assert.equal(tiersOf(bigBody), node <= 20 ? 'optimized' : 'tiered');
    }
  });

  it('puts V8\'s flags back after an eager compile, and keeps the tier flags once a lazy module exists', async () => {
    // once a lazy module exists, later modules get its compilers: a small one's TurboFan only;
    // a big one's TurboFan on Node 20, Liftoff and tiering (the process's own) on 22 and 24
    const plainAfter = (nops) => (usesLiftoff(tiersOf(nops)) ? 'plain liftoff' : 'plain optimized');
    assert.deepEqual(await probeLines('eager:10', 'plain:11', 'lazy:12', 'plain:13', 'eager:14', 'plain:15'),
      [`eager compiled ${tiersOf(10)}`, 'plain liftoff', `lazy uncompiled ${tiersOf(12)}`, plainAfter(12),
        `eager compiled ${tiersOf(14)}`, plainAfter(12)]);
    assert.deepEqual(await probeLines(`lazy:${bigBody}`, 'plain:13'),
      [`lazy uncompiled ${tiersOf(bigBody)}`, plainAfter(bigBody)]);
  });

  it('refuses an unknown mode with a clear message', async () => {
    await assert.rejects(compile(new Uint8Array(0), { compilation: 'fast' }), /compilation: 'fast' is not one of 'auto', 'eager', 'lazy'/);
    const r = await exec(spindle, ['run', '--compile=fast', hello]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /--compile=fast: expected auto, eager, lazy/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('spindle run --compile names the mode under SPINDLE_DEBUG and runs the program', async () => {
    for (const [flag, mode] of [[[], 'eager'], [['--compile=lazy'], 'lazy'], [['--compile', 'eager'], 'eager']]) {
      const r = await exec(spindle, ['run', ...flag, hello], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'hello\n');
      assert.match(r.stderr, new RegExp(`\\[spindle\\] compilation: ${mode} \\(.*\\), V8 tiers: ${tiersOf(0)} \\(.+\\)\n`));
    }
  });

  it('spindle run --browser --compile=eager runs the program in Chromium', { skip: process.env.SPINDLE_TEST_BROWSER === '0' }, async () => {
    const r = await exec(spindle, ['run', '--browser', '--compile=eager', hello]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello\n');
  });
});
