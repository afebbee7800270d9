// spindle cc / spindle run as a user meets them: flags, objects, Makefiles, limits, errors.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { importedMemory } from '../host/module-info.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const src = join(root, 'tests', 'cli');
const out = join(root, 'build', 'tests', 'cli');

describe('spindle cc', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('compiles with -c and links objects, -I, -D, -lm', async () => {
    const flags = ['-O2', `-I${join(src, 'include')}`, '-DGREETING="hi"'];
    for (const part of ['parts_main', 'parts_lib']) {
      const r = await exec(spindle, ['cc', ...flags, '-c', join(src, `${part}.c`), '-o', join(out, `${part}.o`)]);
      assert.equal(r.code, 0, r.stderr);
    }
    const link = await exec(spindle, ['cc', join(out, 'parts_main.o'), join(out, 'parts_lib.o'), '-lm', '-o', join(out, 'parts.wasm')]);
    assert.equal(link.code, 0, link.stderr);
    const run = await exec(spindle, ['run', join(out, 'parts.wasm')]);
    assert.equal(run.stdout, 'hi 42 4.0\n');
  });

  it('works as CC for make', async () => {
    const r = await exec('make', ['-s', '-C', src, `OUT=${out}`, `CC=${spindle} cc`, '-B']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await exec(spindle, ['run', join(out, 'parts.wasm')])).stdout, 'made by make 42 4.0\n');
  });

  it('sets the memory maximum and thread stack size, and malloc fails with ENOMEM at the maximum', async () => {
    const wasm = join(out, 'limits.wasm');
    const r = await exec(spindle, ['cc', '-O2', '--max-memory=32M', '--thread-stack-size=512K',
      join(src, 'stack_and_memory.c'), '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(importedMemory(readFileSync(wasm)).maximum, 32 * 16); // 64 KiB pages
    const run = await exec(spindle, ['run', wasm]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /default thread stack: 524288\n/);
    const got = Number(/got (\d+) MiB, then NULL with ENOMEM: 1\n/.exec(run.stdout)?.[1]);
    assert.ok(got >= 20 && got < 32, `got ${got} MiB of a 32 MiB memory\n${run.stdout}`);
    assert.match(run.stdout, /malloc works again after freeing: 1\n/);
  });

  it('builds C++ by extension and with spindle c++', async () => {
    const cpp = join(out, 'hello.cpp');
    writeFileSync(cpp, '#include <iostream>\n#include <thread>\nint main(){ std::thread t([]{ std::cout << "hi from a std::thread" << std::endl; }); t.join(); }\n');
    for (const cmd of ['cc', 'c++']) {
      const r = await exec(spindle, [cmd, cpp, '-o', join(out, `hello-${cmd}.wasm`)]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await exec(spindle, ['run', join(out, `hello-${cmd}.wasm`)])).stdout, 'hi from a std::thread\n');
    }
  });

  it('refuses bad options with a clear message', async () => {
    for (const [flag, message] of [['--malloc=tcmalloc', /--malloc=tcmalloc: choose one of/],
      ['--max-memory=12Q', /not a size/], ['--max-memory=100000', /multiple of 64 KiB/]]) {
      const r = await exec(spindle, ['cc', flag, join(src, 'parts_lib.c'), '-c', '-o', join(out, 'x.o')]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, message);
    }
  });

  it('passes compile errors through with clang\'s exit code', async () => {
    const bad = join(out, 'bad.c');
    writeFileSync(bad, 'int main(void) { return undefined_name; }\n');
    const r = await exec(spindle, ['cc', bad, '-o', join(out, 'bad.wasm')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /undefined_name/);
  });
});

describe('spindle run', () => {
  it('says what is wrong with a missing or non-wasm file', async () => {
    const missing = await exec(spindle, ['run', join(out, 'no-such.wasm')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file/i);
    const text = join(out, 'not-wasm.wasm');
    writeFileSync(text, 'hello');
    const notWasm = await exec(spindle, ['run', text]);
    assert.equal(notWasm.code, 1);
    assert.match(notWasm.stderr, /not a WebAssembly module/);
  });

  it('refuses unknown options', async () => {
    const r = await exec(spindle, ['run', '--fast', 'x.wasm']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown option --fast/);
  });
});
