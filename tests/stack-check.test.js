// The stack check's post-link pass (cli/build/stack-check.js) as spindle cc applies it: which builds it
// rewrites, that the result is a valid module whose stack-pointer writes are checked, that a
// raised --thread-stack-size moves the limit, and that bad input gets a clear error. The
// overflow programs themselves are in tests/programs (stack_*.c, Node and Chromium).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { addStackCheck, instrumentStackChecks } from '../cli/build/stack-check.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'stack-check');
const overflow = join(root, 'tests', 'programs', 'stack_overflow_thread.c');

const exportNames = (bytes) => WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);

async function build(name, flags) {
  const wasm = join(out, `${name}.wasm`);
  const r = await exec(spindle, ['cc', '-O2', ...flags, overflow, '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
  return wasm;
}

describe('stack check pass', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('is applied by default and leaves --bare and --no-stack-check builds alone', async () => {
    const checked = readFileSync(await build('checked', []));
    const unchecked = readFileSync(await build('unchecked', ['--no-stack-check']));
    const bare = readFileSync(await build('bare', ['--bare']));
    assert.ok(exportNames(checked).includes('__spindle_stack_overflow'));
    assert.ok(!exportNames(bare).includes('__spindle_stack_overflow'), '--bare has no runtime');
    // the unchecked build is what the pass starts from: it finds the writes and keeps it valid
    const rewritten = instrumentStackChecks(unchecked);
    assert.ok(rewritten.checked > 10, `only ${rewritten.checked} stack-pointer writes found`);
    new WebAssembly.Module(rewritten.bytes);
    const run = await exec(spindle, ['run', join(out, 'unchecked.wasm')]);
    assert.ok(!run.stderr.includes('stack overflow'), 'unchecked, nothing reports the overflow');
  });

  it('uses the thread stack size the module was linked with', async () => {
    const wasm = await build('big_stack', ['--thread-stack-size=512K']);
    const r = await exec(spindle, ['run', wasm]);
    assert.equal(r.code, 134);
    assert.match(r.stderr, /thread 1: stack overflow \(limit 512 KiB, raise it with --thread-stack-size\)/);
  });

  it('tells a thread created with a stack size of its own to raise that size, not --thread-stack-size', async () => {
    const r = await exec(spindle, ['run', join(out, 'checked.wasm'), 'own']);
    assert.equal(r.code, 134, `${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /thread 1: stack overflow \(limit 384 KiB, raise the size the thread is created with \(pthread_attr_setstacksize; /);
  });

  it('checks the frames of functions that call nothing, which never write the stack pointer', async () => {
    // tests/programs/stack_overflow_thread.c with `leaf`: a 112-byte leaf frame crosses first;
    // unchecked, it wrote under the stack and the program says so with exit code 1
    const r = await exec(spindle, ['run', join(out, 'checked.wasm'), 'leaf']);
    assert.equal(r.code, 134, `${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, 'recursing\n');
    assert.match(r.stderr, /thread 1: stack overflow \(limit 256 KiB, raise it with --thread-stack-size\)/);
  });

  it('rejects what is not a module it can rewrite, with a message', () => {
    assert.throws(() => instrumentStackChecks(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not a wasm module/);
    const empty = Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0);
    assert.throws(() => instrumentStackChecks(empty), /does not export __spindle_stack_overflow/);
  });

  it('removes a module it cannot rewrite and says how to link without the check', () => {
    const bad = join(out, 'truncated.wasm');
    writeFileSync(bad, Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 10, 5, 1));
    assert.throws(() => addStackCheck(bad), /truncated\.wasm: unexpected end of the module \(link with --no-stack-check/);
    assert.ok(!existsSync(bad));
  });
});
