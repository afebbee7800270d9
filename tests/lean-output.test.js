// spindle cc's output is lean unless asked: no DWARF or names without -g, names with
// --keep-names, everything with -g; and the threaded hello world with files stays within 69 KiB
// (61,248 B with the stack check, /dev, /proc, the files API and lock-free path walks;
// docs/TOOLCHAIN.md, "Output size").
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sections } from '../host/compile/module-info.js';
import { sizesFromMap } from '../bench/size/code-size.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const hello = join(root, 'bench', 'size', 'hello_threads_files.c');
const out = join(root, 'build', 'tests', 'lean');

function customSections(wasm) {
  return [...sections(readFileSync(wasm))].filter((s) => s.id === 0).map((s) => s.name);
}

async function build(name, flags) {
  const wasm = join(out, `${name}.wasm`);
  const r = await exec(spindle, ['cc', '-O2', ...flags, hello, '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
  return wasm;
}

describe('spindle cc output size', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('drops DWARF and names by default, keeps names with --keep-names, all with -g', async () => {
    const lean = await build('lean', []);
    assert.deepEqual(customSections(lean), []);
    assert.deepEqual(customSections(await build('names', ['--keep-names'])), ['name']);
    const debug = customSections(await build('debug', ['-g']));
    assert.ok(debug.includes('name') && debug.includes('.debug_info'), debug.join(' '));
    assert.deepEqual(customSections(await build('g0', ['-g', '-g0'])), []);
    const run = await exec(spindle, ['run', lean]);
    assert.equal(run.stdout, 'hello from a thread\nhello from main\n');
  });

  it('links the record locks only into programs whose own code calls fcntl', async () => {
    // stdio calls fcntl from libc, which reaches the locks only by a weak reference; a program's
    // fcntl call (renamed by runtime/include/ipc/fcntl.h) links them
    const helloNames = readFileSync(await build('hello-names', ['--keep-names']));
    assert.ok(!helloNames.includes('spindle_fs_setlk'), 'the hello world links the record locks');
    const withFcntl = join(out, 'fcntl_call.c');
    writeFileSync(withFcntl, '#include <fcntl.h>\nint main(void) { return fcntl(0, F_GETFL) < 0; }\n');
    const wasm = join(out, 'fcntl_call.wasm');
    const r = await exec(spindle, ['cc', '-O2', '--keep-names', withFcntl, '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(readFileSync(wasm).includes('spindle_fs_setlk'), 'a program calling fcntl lacks the record locks');
  });

  it('keeps the threaded hello world with files within 69 KiB', async () => {
    const wasm = await build('hello', [`-Wl,-Map=${join(out, 'hello.map')}`]);
    const size = readFileSync(wasm).length;
    const parts = sizesFromMap(readFileSync(join(out, 'hello.map'), 'utf8'));
    const detail = JSON.stringify(parts);
    assert.ok(size <= 69 * 1024, `module is ${size} B: ${detail}`);
    for (const part of ['allocator', 'filesystem', 'WASI layer', 'libc']) assert.ok(parts[part]?.code > 0, `${part} missing: ${detail}`);
  });
});
