// The compilers the host picks for the Node running this suite (host/wasm-tiers.js), checked on
// that Node: scripts/test.sh runs this file on the system's Node 20 and again on the Node LTS
// versions setup installs. V8 is asked which compiler made the code a first call ran, for a
// module under and one over the code size that decides on Node 22 and 24, and the wake-up that
// Node 20's Liftoff lost (host/liftoff-wait-calls.js) is tried under this Node's choice.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { liftoffLosesWaitValues, tierFlagsFor, TURBOFAN_CODE_LIMIT, WASM_TIERS, wasmTiersFor } from '../host/wasm-tiers.js';
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
  it('Node 20 runs TurboFan code by default; Node 22 and 24 TurboFan below the code size, Liftoff and tiering from it', () => {
    if (!process.env.SPINDLE_WASM_TIERS) {
      const tiersAt = (version, codeBytes) => wasmTiersFor(codeBytes, version).tiers;
      const [small, big] = [TURBOFAN_CODE_LIMIT - 1, TURBOFAN_CODE_LIMIT];
      assert.deepEqual([tiersAt('20.20.2', small), tiersAt('20.20.2', big)], ['optimized', 'optimized']);
      assert.deepEqual([tiersAt('22.20.0', small), tiersAt('22.20.0', big)], ['optimized', 'tiered']);
      assert.deepEqual([tiersAt('24.19.0', small), tiersAt('24.19.0', big)], ['optimized-no-inlining', 'tiered']);
      assert.match(wasmTiersFor(60 * 1024, '24.19.0').reason, /^Node 24, 60 KiB of code \(under \d+ KiB\): TurboFan only$/);
      assert.match(wasmTiersFor(400 * 1024, '22.20.0').reason, /^Node 22, 400 KiB of code \(from \d+ KiB\): Liftoff \+ tiering$/);
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

  it('says SPINDLE_WASM_TIERS overrides the choice, and refuses an unknown entry', () => {
    const asked = process.env.SPINDLE_WASM_TIERS;
    try {
      process.env.SPINDLE_WASM_TIERS = 'tiered';
      assert.deepEqual(wasmTiersFor(0, '20.20.2'), { tiers: 'tiered', reason: 'SPINDLE_WASM_TIERS=tiered' });
      process.env.SPINDLE_WASM_TIERS = 'fast';
      assert.throws(() => wasmTiersFor(0), /SPINDLE_WASM_TIERS=fast: expected optimized or tiered or/);
    } finally {
      if (asked === undefined) delete process.env.SPINDLE_WASM_TIERS;
      else process.env.SPINDLE_WASM_TIERS = asked;
    }
  });

  // This Node's choice for a small and a big module, and every entry asked for with
  // SPINDLE_WASM_TIERS (the probe's small module).
  const cases = [['small'], ['big'], ...Object.keys(WASM_TIERS).map((tiers) => ['small', tiers])];
  for (const [size, tiers] of cases) {
    for (const mode of ['lazy', 'eager']) {
      const whose = tiers ?? `this Node's choice for a ${size} module`;
      it(`a first call, and the code after it, come from ${whose}'s compilers (${mode})`, async () => {
        const env = tiers ? { ...process.env, SPINDLE_WASM_TIERS: tiers } : process.env;
        const r = await exec(process.execPath, ['--allow-natives-syntax', probe, mode, size], { env });
        assert.equal(r.code, 0, r.stderr);
        const [compilers, reported] = r.stdout.trim().split('\n');
        const expected = tiers ?? wasmTiersFor(size === 'big' ? TURBOFAN_CODE_LIMIT : 0).tiers;
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
