// When V8 compiles a module's functions (host/compilation.js): the host API's `compilation`
// option and `spindle run --compile` are honoured, checked with V8's own view of a function
// (compiled before its first call or not), and `auto` chooses by the size of the code.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { compile } from '../host/index.js';
import { EAGER_FROM_CODE_BYTES } from '../host/compilation.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const probe = join(root, 'tests', 'compilation', 'probe.mjs');
const out = join(root, 'build', 'tests', 'compilation');
const hello = join(out, 'hello.wasm');

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
      ['eager compiled', 'lazy uncompiled', 'eager compiled']);
  });

  it('auto (the default) is lazy below the threshold and eager from it', async () => {
    const big = EAGER_FROM_CODE_BYTES; // a body of this many nops makes the code section a little larger
    assert.deepEqual(await probeLines('-:10', `auto:${big}`, 'auto:13', `-:${big + 1}`),
      ['lazy uncompiled', 'eager compiled', 'lazy uncompiled', 'eager compiled']);
  });

  it('refuses an unknown mode with a clear message', async () => {
    await assert.rejects(compile(new Uint8Array(0), { compilation: 'fast' }), /compilation: 'fast' is not one of 'auto', 'eager', 'lazy'/);
    const r = await exec(spindle, ['run', '--compile=fast', hello]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /--compile=fast: expected auto, eager, lazy/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('spindle run --compile names the mode under SPINDLE_DEBUG and runs the program', async () => {
    for (const [flag, mode] of [[[], 'lazy'], [['--compile=eager'], 'eager'], [['--compile', 'lazy'], 'lazy']]) {
      const r = await exec(spindle, ['run', ...flag, hello], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'hello\n');
      assert.match(r.stderr, new RegExp(`\\[spindle\\] compilation: ${mode} `));
    }
  });

  it('spindle run --browser --compile=eager runs the program in Chromium', { skip: process.env.SPINDLE_TEST_BROWSER === '0' }, async () => {
    const r = await exec(spindle, ['run', '--browser', '--compile=eager', hello]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello\n');
  });
});
