// `spindle cc --host=wasi` (docs/PORTABLE.md): a threaded C program built portable imports only
// env.memory, wasi_snapshot_preview1.* and wasi.thread-spawn, and under the npm WASI host
// (@tybys/wasm-util's WASI, @emnapi/wasi-threads: bench/npm-wasi/run-node.mjs) prints what its
// native build prints: threads, pthread_exit, a pipe between threads (Spindle's FS), and files
// written, read back and listed in a directory the host preopened (a mount of the tree).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importedMemory } from '../host/module-info.js';
import { exec } from './lib/exec.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const spindle = join(root, 'bin', 'spindle');
const source = join(root, 'tests', 'portable', 'threads_files.c');
const npmHost = join(root, 'bench', 'npm-wasi', 'run-node.mjs');
let out;
let wasm;

before(async () => {
  out = mkdtempSync(join(tmpdir(), 'spindle-portable-'));
  wasm = join(out, 'threads_files.wasm');
  // emnapi's thread-spawn allocates with the module's malloc and free
  const cc = await exec(spindle, ['cc', '-O2', '--host=wasi', source, '-o', wasm, '-Wl,--export=malloc,--export=free']);
  assert.equal(cc.code, 0, cc.stderr);
});
after(() => rmSync(out, { recursive: true, force: true }));

test('a portable module imports only the standard imports and exports wasi_thread_start', () => {
  const bytes = readFileSync(wasm);
  const module = new WebAssembly.Module(bytes);
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    const allowed = (from === 'env' && name === 'memory') || from === 'wasi_snapshot_preview1' ||
      (from === 'wasi' && name === 'thread-spawn');
    assert.ok(allowed, `unexpected import ${from}.${name}`);
  }
  assert.equal(importedMemory(bytes).shared, true);
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  assert.ok(exports.includes('wasi_thread_start') && exports.includes('_start'), exports.join(' '));
});

test('under the npm WASI host it prints what the native build prints, its files in the preopen', async () => {
  const native = join(out, 'threads_files.native');
  const cc = await exec('clang-22', ['-O2', '-pthread', source, '-o', native]);
  assert.equal(cc.code, 0, cc.stderr);
  const dir = join(out, 'native-dir');
  mkdirSync(dir);
  const expected = await exec(native, [dir]);
  assert.equal(expected.code, 0, expected.stderr);
  const got = await exec(process.execPath, [npmHost, '--stats', '--preopen=/data', wasm, '/data']);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout, expected.stdout);
  // the files went to the host's volume (memfs), through the preopen's mount
  const written = Number(/bytes written (\d+)/.exec(got.stderr)?.[1]);
  assert.ok(written >= 3 * 'line 0 of the file\n'.length, got.stderr);
});

test('--host=wasi refuses what only Spindle\'s host serves, with a clear error', async () => {
  for (const flag of ['--fs=js', '--bare', '--preload-file=x@/x']) {
    const r = await exec(spindle, ['cc', '--host=wasi', flag, source, '-o', join(out, 'no.wasm')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--host=wasi|Spindle's host/, r.stderr);
  }
});
