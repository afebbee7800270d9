// The compilers the host picks for the Node running this suite (host/wasm-tiers.js), checked on
// that Node: scripts/test.sh runs this file on the system's Node 20 and again on the Node LTS
// versions setup installs. V8 is asked which compiler made the code a first call ran, and the
// wake-up that Node 20's Liftoff lost (host/liftoff-wait-calls.js) is tried under this Node's choice.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { liftoffLosesWaitValues, tierFlagsFor, WASM_TIERS, wasmTiersFor } from '../host/wasm-tiers.js';
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
};

describe(`compilers on Node ${process.versions.node}`, () => {
  it('Node 20 runs TurboFan code by default; Node 22 and 24 start in Liftoff and tier up', () => {
    if (!process.env.SPINDLE_WASM_TIERS) {
      assert.equal(wasmTiersFor('20.20.2'), 'optimized');
      assert.equal(wasmTiersFor('22.20.0'), 'tiered');
      assert.equal(wasmTiersFor('24.19.0'), 'tiered');
    }
    assert.equal(liftoffLosesWaitValues('20.20.2'), true);
    assert.equal(liftoffLosesWaitValues('22.20.0'), false);
    assert.equal(liftoffLosesWaitValues('24.19.0'), false);
  });

  it('turns wasm inlining off only where V8 inlines by default (Node 24)', () => {
    const inliningOff = (version) => tierFlagsFor('optimized-no-inlining', version).includes('--no-wasm-inlining');
    assert.deepEqual(['20.20.2', '22.20.0', '24.19.0'].map(inliningOff), [false, false, true]);
    assert.deepEqual(tierFlagsFor('optimized', '24.19.0'), WASM_TIERS.optimized);
  });

  // This Node's choice, and every other entry asked for with SPINDLE_WASM_TIERS.
  for (const tiers of [undefined, ...Object.keys(WASM_TIERS)]) {
    for (const mode of ['lazy', 'eager']) {
      it(`a first call, and the code after it, come from ${tiers ?? 'this Node\'s choice'}'s compilers (${mode})`, async () => {
        const env = tiers ? { ...process.env, SPINDLE_WASM_TIERS: tiers } : process.env;
        const r = await exec(process.execPath, ['--allow-natives-syntax', probe, mode], { env });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout.trim(), expectedCompilers[tiers ?? wasmTiersFor()]);
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
    // Node 20's Liftoff lost this wake-up every time (0 of 10) before host/liftoff-wait-calls.js;
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
