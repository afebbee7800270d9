// Modules not built through Spindle (plain `cargo build`, `spindle cc --bare`): `spindle run
// --mount=/PATH=HOSTDIR` gives them the directory as a WASI preopen, served by the host
// (host/wasi/preopens.js over the hostdir backend). Both programs are built once. docs/RUST.md.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'prebuilt');
const rustWasm = join(out, 'target', 'wasm32-wasip1-threads', 'release', 'prebuilt-files.wasm');
const cWasm = join(out, 'files-bare.wasm');
const rustToolchain = /^RUST_TOOLCHAIN=(.*)$/m.exec(readFileSync(join(root, 'scripts', 'versions.env'), 'utf8'))[1];

// A fresh host directory `data` beside a file the program must not reach, and a symlink out.
function hostDir(name) {
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(join(dir, 'secret.txt'), 'outside the mount');
  writeFileSync(join(dir, 'data', 'from-host.txt'), 'on the host');
  symlinkSync(join(dir, 'secret.txt'), join(dir, 'data', 'link'));
  return join(dir, 'data');
}

function ok(r, what) {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code})\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

before(() => {
  mkdirSync(out, { recursive: true });
  execFileSync('cargo', ['build', '--quiet', '--release', '--locked', '--target', 'wasm32-wasip1-threads',
    '--target-dir', join(out, 'target')], { cwd: join(root, 'tests', 'prebuilt', 'rust'),
    env: { ...process.env, RUSTUP_TOOLCHAIN: rustToolchain }, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(spindle, ['cc', '--bare', '-O2', join(root, 'tests', 'prebuilt', 'files.c'), '-o', cWasm]);
});

describe('modules not built by Spindle, with --mount (Node)', () => {
  it('plain cargo: std::fs creates, writes (from another thread), reads, lists, renames, removes; mpsc blocks and wakes', async () => {
    const data = hostDir('rust');
    const got = ok(await exec(spindle, ['run', `--mount=/data=${data}`, rustWasm, '/data']), 'rust program');
    assert.equal(got, 'rust read="from plain cargo!" entries=["b.txt", "kept.txt"] size=23 host="on the host" rmdir_full=errno 55\n' +
      'rust mpsc=7\n' +
      // WASI errnos: 76 ENOTCAPABLE (`..` above the mount), 75 EXDEV (a symlink out of it), 44 ENOENT
      'rust escape dotdot=errno 76 symlink=errno 75 missing=errno 44\n');
    assert.equal(readFileSync(join(data, 'sub', 'kept.txt'), 'utf8'), 'written by rust');
    assert.ok(!existsSync(join(data, 'sub', 'b.txt')));
  });

  it('spindle cc --bare: fopen, read, rename, stat, readdir, unlink, rmdir; escapes fail', async () => {
    const data = hostDir('c');
    const got = ok(await exec(spindle, ['run', `--mount=/data=${data}`, cWasm, '/data']), 'C program');
    assert.equal(got, 'c read="from spindle cc --bare" b.txt_listed=1 size=28 gone=1\n' +
      'c escape dotdot=Capabilities insufficient symlink=Cross-device link\n');
    assert.ok(!existsSync(join(data, 'csub')));
  });

  it('the host API gives mounts to such a module too, and refuses what it cannot serve', async () => {
    const { run } = await import('../host/index.js');
    const wasm = readFileSync(cWasm);
    const data = hostDir('api');
    const outFile = join(out, 'api-stdout.txt');
    const stdout = openSync(outFile, 'w');
    const result = await run(wasm, { args: ['files', '/data'], mounts: [{ path: '/data', hostDir: data }], stdout });
    closeSync(stdout);
    assert.equal(result.exitCode, 0);
    assert.match(readFileSync(outFile, 'utf8'), /^c read="from spindle cc --bare" b\.txt_listed=1 size=28 gone=1\n/);
    await assert.rejects(run(wasm, { mounts: [{ path: '/data', hostDir: data, ioWorkers: 2 }] }),
      /ioWorkers needs a module built with the Spindle filesystem/);
  });

  it('without --mount such a module is told once that it has no files', async () => {
    const r = await exec(spindle, ['run', cWasm, '/data']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^spindle: this module has no filesystem of its own .*\n$/);
    assert.match(r.stdout, /^c mkdir failed: /);
  });
});
