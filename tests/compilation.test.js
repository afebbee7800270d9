// When V8 compiles a module's functions (host/compile/compilation.js): under the flags the process was
// started with, never changed while it runs (Node 26's V8 aborts when they change under a
// module); eager under TURBOFAN_FLAGS, lazy under V8's defaults, which `spindle` runs with
// TurboFan code made for them once the cache has it (cli/common/v8-start.js); a mode the process
// was not started with is refused by the host API and run in a Node of its own by
// `spindle run --compile`. Checked with V8's own view of a function (compiled before its first
// call or not, and by which compiler).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { TURBOFAN_FLAGS } from '../host/code-cache/defaults-stamp.js';
import { compile } from '../host/index.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const probe = join(root, 'tests', 'compilation', 'probe.mjs');
const out = join(root, 'build', 'tests', 'compilation');
const hello = join(out, 'hello.wasm');

// The probe's lines in a Node started with V8 flags `flags`.
const probeLines = async (flags, ...modules) => {
  const r = await exec(process.execPath, ['--allow-natives-syntax', ...flags, probe, ...modules]);
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

  it('compiles every function with TurboFan before the first call under TURBOFAN_FLAGS, none under V8\'s defaults', async () => {
    assert.deepEqual(await probeLines(TURBOFAN_FLAGS, '-:10', 'auto:11', 'eager:12', 'plain:13'),
      ['eager compiled optimized', 'eager compiled optimized', 'eager compiled optimized', 'plain optimized']);
    assert.deepEqual(await probeLines([], '-:10', 'lazy:11', 'plain:12'), ['lazy uncompiled tiered', 'lazy uncompiled tiered', 'plain liftoff']);
  });

  it('refuses a mode the process was not started with, naming the flag, and changes no V8 flag', async () => {
    assert.deepEqual(await probeLines(TURBOFAN_FLAGS, 'lazy:10', 'plain:11'), [
      "refused: compilation: 'lazy' needs Node started with --wasm-lazy-compilation (this one compiles eagerly; V8's flags cannot change while a process runs)",
      'plain optimized']);
    assert.deepEqual(await probeLines([], 'eager:10', 'plain:11'), [
      "refused: compilation: 'eager' needs Node started with --no-wasm-lazy-compilation (this one compiles lazily; V8's flags cannot change while a process runs)",
      'plain liftoff']);
    for (const dir of ['host', 'cli']) {
      const r = await exec('grep', ['-rln', 'setFlagsFromString', join(root, dir)]);
      assert.equal(r.stdout, '', `${dir}/ changes V8's flags while a process runs`);
    }
  });

  it('bin/spindle starts Node without V8 flags, and this Node takes the TurboFan maker\'s', async () => {
    const shebang = readFileSync(spindle, 'utf8').split('\n')[0];
    assert.equal(shebang, '#!/usr/bin/env node');
    const r = await exec(process.execPath, [...TURBOFAN_FLAGS, '-e', '0']);
    assert.deepEqual([r.code, r.stderr], [0, '']);
  });

  it('refuses an unknown mode with a clear message', async () => {
    await assert.rejects(compile(new Uint8Array(0), { compilation: 'fast' }), /compilation: 'fast' is not one of 'auto', 'eager', 'lazy'/);
    const r = await exec(spindle, ['run', '--compile=fast', hello]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /--compile=fast: expected auto, eager, lazy/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('spindle run compiles lazily until TurboFan code is made for its V8 defaults, then loads it; --compile says which', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'spindle-compilation-'));
    const runWith = async (...flags) => {
      const r = await exec(spindle, ['run', `--code-cache=${cache}`, ...flags, hello], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'hello\n');
      const mode = /\[spindle\] compilation: (\w+) \(.*\), V8 tiers: (\w+) \(.+\)\n\[spindle\] code cache: (\w+)/.exec(r.stderr)?.slice(1);
      const again = /\[spindle\] V8 flags: a Node started with (.*) \((.*)\)\n/.exec(r.stderr)?.slice(1);
      return { mode, again };
    };
    // no code yet: --compile=eager runs in a Node started for TurboFan
    assert.deepEqual(await runWith('--compile', 'eager'), { mode: ['eager', 'optimized', 'stored'],
      again: [TURBOFAN_FLAGS.join(' '), '--compile=eager, no TurboFan code cached'] });
    const files = (ending) => readdirSync(cache).filter((f) => f.endsWith(ending)).length;
    const stamped = () => files('.code') === 2 && files('.making') === 0;
    for (let waited = 0; !stamped() && waited < 60000; waited += 200) await new Promise((done) => setTimeout(done, 200));
    assert.ok(stamped(), 'no TurboFan code made for V8\'s defaults within 60 s of the run');
    assert.deepEqual(await runWith(), { mode: ['eager', 'optimized', 'hit'], again: undefined });
    assert.deepEqual(await runWith('--compile=eager'), { mode: ['eager', 'optimized', 'hit'], again: undefined });
    assert.deepEqual(await runWith('--compile=lazy'), { mode: ['lazy', 'tiered', 'off'], again: undefined });
  });

  it('spindle run --browser --compile=eager runs the program in Chromium', { skip: process.env.SPINDLE_TEST_BROWSER === '0' }, async () => {
    const r = await exec(spindle, ['run', '--browser', '--compile=eager', hello]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello\n');
  });
});
