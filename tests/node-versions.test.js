// The compilers a Node process runs (host/compile/wasm-tiers.js), checked on the Node running this
// suite: scripts/test.sh runs this file on every Node it tests. The flags are given when Node
// starts and never changed while it runs; V8 is asked which compiler made the code a first call
// ran under each WASM_TIERS entry, and the wake-up that Node 20's Liftoff lost
// (host/compile/liftoff-wait-calls.js) is tried under each way `spindle run` compiles.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { nodeTooOld } from '../cli/common/node-version.js';
import { CLI_NODE_FLAGS } from '../cli/common/v8-start.js';
import { TURBOFAN_FLAGS } from '../host/code-cache/defaults-stamp.js';
import { inlinesWasmCalls, liftoffLosesWaitValues, processTiers, startFlagsFor, tierFlagsFor, WASM_TIERS } from '../host/compile/wasm-tiers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const probe = join(root, 'tests', 'node-versions', 'tiers-probe.mjs');
const out = join(root, 'build', 'tests', 'node-versions');
// What the probe prints per WASM_TIERS entry: the compiler of a first call, then of the code
// the function holds once background compiles are done.
const expectedCompilers = {
  optimized: /^turbofan then turbofan$/,
  tiered: /^liftoff then liftoff$/,
  background: /^(liftoff|turbofan) then turbofan$/,
  'optimized-no-inlining': /^turbofan then turbofan$/,
  'liftoff-only': /^liftoff then liftoff$/,
};

describe(`compilers on Node ${process.versions.node}`, () => {
  it('reads the compilers and the compile mode from the flags Node was started with', () => {
    assert.deepEqual(processTiers([], '26.12.1'), { tiers: 'tiered', compilation: 'lazy' });
    assert.deepEqual(processTiers(CLI_NODE_FLAGS, '26.12.1'), { tiers: 'tiered', compilation: 'lazy' });
    assert.deepEqual(processTiers(TURBOFAN_FLAGS, '26.12.1'), { tiers: 'optimized', compilation: 'eager' });
    assert.deepEqual(processTiers([...TURBOFAN_FLAGS, '--no-wasm-inlining'], '24.19.0'), { tiers: 'optimized-no-inlining', compilation: 'eager' });
    assert.deepEqual(processTiers([...TURBOFAN_FLAGS, '--no-wasm-inlining'], '22.20.0'), { tiers: 'optimized', compilation: 'eager' });
    assert.deepEqual(processTiers(['--no_liftoff', '--liftoff=true', '--wasm-lazy-compilation=false'], '20.20.2'), { tiers: 'tiered', compilation: 'eager' });
    assert.deepEqual(processTiers(['--wasm-tier-up', '--no-wasm-dynamic-tiering']), { tiers: 'background', compilation: 'lazy' });
    assert.deepEqual(processTiers(['--no-wasm-tier-up', '--no-wasm-dynamic-tiering']).tiers, 'liftoff-only');
    for (const tiers of Object.keys(WASM_TIERS)) {
      for (const compilation of ['eager', 'lazy']) {
        const expected = tiers === 'optimized-no-inlining' && !inlinesWasmCalls() ? 'optimized' : tiers;
        assert.deepEqual(processTiers(startFlagsFor(tiers, compilation)), { tiers: expected, compilation }, `${tiers} ${compilation}`);
      }
    }
    assert.equal(liftoffLosesWaitValues('20.20.2'), true);
    assert.equal(liftoffLosesWaitValues('22.20.0'), false);
    assert.equal(liftoffLosesWaitValues('26.12.1'), false);
  });

  it('refuses a Node older than 20 with one line that says what to do', async () => {
    assert.equal(nodeTooOld('18.20.4'), 'Node 18.20.4 is too old for Spindle: it runs on Node 22 or later (26.x is the active LTS); put a newer node first on PATH');
    assert.deepEqual(['20.20.2', '20.16.0', '22.3.0', '22.20.0', '24.19.0', '26.12.1'].map((v) => nodeTooOld(v)), [null, null, null, null, null, null]);
    // (without process.getBuiltinModule)
    assert.match(nodeTooOld('22.2.0'), /^Node 22\.2\.0 is too old/);
    assert.match(nodeTooOld('20.15.1'), /^Node 20\.15\.1 is too old/);
    // bin/spindle asks before it loads anything else: a Node reporting an old version is refused
    const r = await exec(process.execPath, [...CLI_NODE_FLAGS, '--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"18.0.0"})', spindle, 'run', 'x.wasm']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', `spindle: ${nodeTooOld('18.0.0')}\n`]);
  });

  it('turns wasm inlining off only where V8 inlines by default (Node 24 and later)', () => {
    const inliningOff = (version) => tierFlagsFor('optimized-no-inlining', version).includes('--no-wasm-inlining');
    assert.deepEqual(['20.20.2', '22.20.0', '24.19.0', '26.12.1'].map(inliningOff), [false, false, true, true]);
    assert.deepEqual(tierFlagsFor('optimized', '24.19.0'), WASM_TIERS.optimized);
  });

  // Every entry, in a Node started with its flags (the probe's small module), eager and lazy.
  for (const tiers of Object.keys(WASM_TIERS)) {
    for (const mode of ['lazy', 'eager']) {
      it(`a first call, and the code after it, come from ${tiers}'s compilers (${mode})`, async () => {
        const r = await exec(process.execPath, ['--allow-natives-syntax', ...startFlagsFor(tiers, mode), probe, mode]);
        assert.equal(r.code, 0, r.stderr);
        const [compilers, reported] = r.stdout.trim().split('\n');
        const expected = processTiers(startFlagsFor(tiers, mode)).tiers;
        assert.equal(reported, `tiers ${expected}`);
        assert.match(compilers, expectedCompilers[expected]);
      });
    }
  }

  describe('tests/programs/futex_park_wake.c wakes every time', () => {
    let wasm;
    before(async () => {
      mkdirSync(out, { recursive: true });
      wasm = join(out, 'futex_park_wake.wasm');
      const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'programs', 'futex_park_wake.c'), '-o', wasm]);
      assert.equal(r.code, 0, r.stderr);
    });
    // Node 20's Liftoff lost this wake-up every time (0 of 10) before host/compile/liftoff-wait-calls.js;
    // a lost one hangs until the timeout.
    // Liftoff (`tiered`, `background`) is tried on every version, Node 20's opt-ins included.
    for (const [mode, tiers] of [['lazy'], ['eager'], ['eager', 'tiered'], ['eager', 'background']]) {
      it(`5 runs (${mode}${tiers ? `, SPINDLE_WASM_TIERS=${tiers}` : ''})`, async () => {
        const env = tiers ? { ...process.env, SPINDLE_WASM_TIERS: tiers } : process.env;
        for (let i = 0; i < 5; i++) {
          const r = await exec(spindle, ['run', `--compile=${mode}`, wasm], { timeoutMs: 20000, env });
          assert.deepEqual([r.code, r.stdout], [0, 'selected 7\n'], `run ${i + 1}: ${r.stderr}`);
        }
      });
    }
  });
});
