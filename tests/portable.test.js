// `spindle cc --host=wasi` (docs/PORTABLE.md): threaded C, C++ and Rust (`spindle cargo
// --host=wasi`) programs built portable import
// only env.memory, wasi_snapshot_preview1.* and wasi.thread-spawn, and print what their native
// builds print under two hosts that are not Spindle's: the npm WASI host (@tybys/wasm-util's
// WASI with @emnapi/wasi-threads, bench/npm-wasi/run-node.mjs) and wasmtime (wasmtime-py,
// tools/wasmtime/run.py). They use threads, pthread_exit, a pipe between threads (Spindle's FS)
// and files written, read back and listed in a directory the host preopened (a mount of the tree).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { rustToolchain } from '../cli/common/toolchain.js';
import { importedMemory } from '../host/compile/module-info.js';
import { exec } from './lib/exec.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const spindle = join(root, 'bin', 'spindle');
const npmHost = join(root, 'bench', 'npm-wasi', 'run-node.mjs');
const npmHostBrowser = join(root, 'bench', 'npm-wasi', 'run-browser.mjs');
const wasmtimeHost = join(root, 'tools', 'wasmtime', 'run.py');
const wasmtimePy = join(root, '.toolchain', 'wasmtime-py');
// wasmtime runs no legacy Wasm exceptions: no pthread_exit (its unwinding), no C++ exceptions
const builds = {
  c: { source: 'threads_files.c', native: 'clang-22', flags: [] },
  'c-no-exit': { source: 'threads_files.c', native: 'clang-22', flags: ['-DWITHOUT_PTHREAD_EXIT'] },
  cpp: { source: 'threads_files.cpp', native: 'clang++-22', flags: ['-fno-exceptions'] },
  'shared-fd': { source: 'shared_fd.c', native: 'clang-22', flags: [] },
};
const rustCrate = join(root, 'tests', 'portable', 'rust');
let out;

// The Rust program, built portable and natively (cargo's own target) into out.
async function buildRust() {
  const env = { ...process.env, CARGO_TARGET_DIR: join(out, 'rust-target'), RUSTUP_TOOLCHAIN: rustToolchain };
  const cargo = await exec(spindle, ['cargo', 'build', '--release', '--host=wasi', '--manifest-path', join(rustCrate, 'Cargo.toml')], { env });
  assert.equal(cargo.code, 0, cargo.stderr);
  const nat = await exec('cargo', ['build', '--release', '--manifest-path', join(rustCrate, 'Cargo.toml')], { env });
  assert.equal(nat.code, 0, nat.stderr);
  const dir = join(out, 'rust-native-dir');
  mkdirSync(dir);
  const expected = await exec(join(out, 'rust-target', 'release', 'portable_threads_files'), [dir]);
  assert.equal(expected.code, 0, expected.stderr);
  builds.rust = { wasm: join(out, 'rust-target', 'wasm32-wasip1-threads', 'release', 'portable_threads_files.wasm'), expected };
}

before(async () => {
  out = mkdtempSync(join(tmpdir(), 'spindle-portable-'));
  const rust = buildRust();
  await Promise.all(Object.entries(builds).map(async ([name, b]) => {
    const source = join(root, 'tests', 'portable', b.source);
    b.wasm = join(out, `${name}.wasm`);
    const cc = await exec(spindle, ['cc', '-O2', '--host=wasi', ...b.flags, source, '-o', b.wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    const native = join(out, `${name}.native`);
    const nat = await exec(b.native, ['-O2', '-pthread', ...b.flags, source, '-o', native]);
    assert.equal(nat.code, 0, nat.stderr);
    const dir = join(out, `${name}-native-dir`);
    mkdirSync(dir);
    b.expected = await exec(native, [dir]);
    assert.equal(b.expected.code, 0, b.expected.stderr);
  }));
  await rust;
});
after(() => rmSync(out, { recursive: true, force: true }));

function assertStandardImports(wasm, module) {
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    const allowed = (from === 'env' && name === 'memory') || from === 'wasi_snapshot_preview1' ||
      (from === 'wasi' && name === 'thread-spawn');
    assert.ok(allowed, `${wasm}: unexpected import ${from}.${name}`);
  }
}

test('a portable module imports only the standard imports and exports wasi_thread_start', () => {
  for (const { wasm } of Object.values(builds)) {
    const bytes = readFileSync(wasm);
    const module = new WebAssembly.Module(bytes);
    assertStandardImports(wasm, module);
    assert.equal(importedMemory(bytes).shared, true);
    const exports = WebAssembly.Module.exports(module).map((e) => e.name);
    // malloc and free: emnapi's thread-spawn allocates with them
    for (const name of ['wasi_thread_start', '_start', 'malloc', 'free']) assert.ok(exports.includes(name), exports.join(' '));
  }
});

for (const name of ['c', 'cpp', 'rust']) {
  test(`${name}: under the npm WASI host it prints what the native build prints, its files in the preopen`, async () => {
    const b = builds[name];
    const got = await exec(process.execPath, [npmHost, '--stats', '--preopen=/data', b.wasm, '/data']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, b.expected.stdout);
    // the files went to the host's volume (memfs), through the preopen's mount
    assert.ok(Number(/bytes written (\d+)/.exec(got.stderr)?.[1]) > 0, got.stderr);
  });
}

// The pthread's use of main's fd opens the path again on its own WASI, a call proxied to the JS
// main thread: with the C main there (blocked in pthread_join) that could never be answered.
test('shared-fd: under the npm WASI host (C main on a worker) two threads use one fd of the preopen', async () => {
  const b = builds['shared-fd'];
  const got = await exec(process.execPath, [npmHost, '--c-main=worker', '--preopen=/data', b.wasm, '/data']);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout, b.expected.stdout);
});

// The page's host preopens only "/" (its memfs root), which a portable module does not mount:
// the files go to /tmp of Spindle's in-memory tree.
test('c: in Chromium, under the npm WASI host with the C main on a worker, it prints what the native build prints', async () => {
  const got = await exec(process.execPath, [npmHostBrowser, '--c-main=worker', builds.c.wasm, '/tmp']);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout, builds.c.expected.stdout);
});

for (const name of ['c-no-exit', 'cpp', 'rust', 'shared-fd']) {
  test(`${name}: under wasmtime it prints what the native build prints, its files in the host directory`, async () => {
    assert.ok(existsSync(wasmtimePy), 'wasmtime-py is missing: scripts/setup.sh installs it');
    const b = builds[name];
    const dir = join(out, `${name}-wasmtime-dir`);
    mkdirSync(dir);
    const got = await exec('python3', [wasmtimeHost, `--dir=/data=${dir}`, b.wasm, '/data'],
      { env: { ...process.env, PYTHONPATH: wasmtimePy } });
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, b.expected.stdout);
    assert.deepEqual(readdirSync(dir).sort(), readdirSync(join(out, `${name}-native-dir`)).sort());
  });
}

// A small program, its lines written here, built portable and run under the npm host.
async function runPortable(name, lines) {
  const source = join(out, `${name}.c`);
  const wasm = join(out, `${name}.wasm`);
  writeFileSync(source, [...lines, ''].join('\n'));
  const cc = await exec(spindle, ['cc', '-O1', '--host=wasi', source, '-o', wasm]);
  assert.equal(cc.code, 0, cc.stderr);
  return { wasm, got: await exec(process.execPath, [npmHost, wasm]) };
}

test('a stack overflow ends a portable module with its message and status 134', async () => {
  const { got } = await runPortable('overflow', [
    '#include <string.h>',
    'static int deep(int n) { char buf[16384]; memset(buf, n, sizeof buf);',
    '  __asm__ volatile("" :: "r"(buf) : "memory"); return n ? deep(n - 1) + buf[n % 100] : 0; }',
    'int main(void) { return deep(1 << 20); }']);
  assert.equal(got.code, 134, got.stderr);
  assert.match(got.stderr, /stack overflow \(limit 1024 KiB, raise it with --stack-size\)/);
});

// The calls that reach the spindle.* imports (runtime/include/spindle/host_imports.h) a portable
// module links: runtime/portable stands in for each, or the module could not start elsewhere.
test('pthread_exit, sysconf, fstatfs and /proc/self/fd of stdio: still standard imports only, and they work', async () => {
  const { wasm, got } = await runPortable('host_imports', [
    '#include <pthread.h>', '#include <stdio.h>', '#include <sys/statfs.h>', '#include <unistd.h>',
    'static void *body(void *arg) { pthread_exit(arg); }',
    'int main(void) {',
    '  pthread_t t; void *back; struct statfs fs; char name[64] = "";',
    '  pthread_create(&t, NULL, body, "exit value"); pthread_join(t, &back);',
    '  readlink("/proc/self/fd/1", name, sizeof name - 1);',
    '  printf("%s, %d cores, fstatfs %d, %s\\n", (char *)back, (int)sysconf(_SC_NPROCESSORS_ONLN), fstatfs(1, &fs), name);',
    '  return 0;',
    '}']);
  assertStandardImports(wasm, new WebAssembly.Module(readFileSync(wasm)));
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout, 'exit value, 1 cores, fstatfs 0, host:[stdout]\n');
});

test('--host=wasi refuses what only Spindle\'s host serves, with a clear error', async () => {
  const source = join(root, 'tests', 'portable', 'threads_files.c');
  for (const flag of ['--fs=js', '--bare', '--preload-file=x@/x']) {
    const r = await exec(spindle, ['cc', '--host=wasi', flag, source, '-o', join(out, 'no.wasm')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--host=wasi|Spindle's host/, r.stderr);
  }
});
