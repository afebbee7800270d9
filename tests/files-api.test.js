// The JS files API of a program (host/files, docs/FILES.md): before start, while C threads run,
// after exit, errors as codes, and consistency with what the program's threads see; in Node and
// on a web page.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compile, createProgram } from '../host/index.js';
import { exec } from './lib/exec.js';
import { browserTitle, testBrowsers } from './lib/browsers.js';
import { pageResult } from './lib/page-result.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'files');
const wasmPath = join(out, 'files_probe.wasm');
let compiled;

/** A created (not started) program whose stdout goes to a file: { program, stdout() }. */
async function create(args) {
  const file = join(out, `stdout-${Math.random().toString(36).slice(2)}.txt`);
  const fd = openSync(file, 'w');
  const program = await createProgram(compiled, { args: ['files_probe', ...args], stdout: fd });
  program.exited.finally(() => closeSync(fd));
  return { program, stdout: () => readFileSync(file, 'utf8') };
}

async function until(what, fn, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw new Error(`${what}: ${err.message}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

function fnv(bytes) {
  let h = 2166136261;
  for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
  return h.toString(16).padStart(8, '0');
}

describe('files API in Node', () => {
  const programs = [];
  before(async () => {
    mkdirSync(out, { recursive: true });
    const r = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'tests', 'files', 'files_probe.c'), '-o', wasmPath]);
    assert.equal(r.code, 0, r.stderr);
    compiled = await compile(readFileSync(wasmPath));
  });
  after(() => programs.forEach((p) => p.dispose()));

  it('writes before start what C reads, and reads after exit what C wrote', async () => {
    const { program, stdout } = await create(['sum', '/tmp/in.txt', '/data/deep/bin', '/data/deep/empty', '/data/big']);
    programs.push(program);
    const { files } = program;
    const binary = Uint8Array.from({ length: 256 * 4 }, (_, i) => i % 256);
    const big = Uint8Array.from({ length: 5 * 1024 * 1024 + 123 }, (_, i) => (i * 7919 + (i >> 12)) & 0xff);
    await files.mkdir('/data/deep', { recursive: true });
    await Promise.all([
      files.writeFile('/tmp/in.txt', 'from JS\n'),
      files.writeFile('/data/deep/bin', binary),
      files.writeFile('/data/deep/empty', new Uint8Array()),
      files.writeFile('/data/big', big),
    ]);
    assert.deepEqual(await files.readdir('/data/deep'), ['empty', 'bin']); // newest first, as readdir lists
    program.start();
    assert.deepEqual(await program.exited, { exitCode: 0, trap: undefined });
    assert.equal(stdout(), [
      `/tmp/in.txt size=8 fnv=${fnv(new TextEncoder().encode('from JS\n'))}`,
      `/data/deep/bin size=1024 fnv=${fnv(binary)}`,
      `/data/deep/empty size=0 fnv=${fnv([])}`,
      `/data/big size=${big.length} fnv=${fnv(big)}`, ''].join('\n'));
    // after exit: the tree is still there, through the same API
    assert.deepEqual(await files.readFile('/data/big'), big);
    assert.equal(await files.readFile('/tmp/in.txt', 'utf8'), 'from JS\n');
    const st = await files.stat('/data/big');
    assert.equal(st.type, 'file');
    assert.equal(st.size, big.length);
    assert.equal((await files.stat('/data')).isDirectory(), true);
    assert.deepEqual(await files.readdir('/data', { withFileTypes: true }),
      [{ name: 'big', type: 'file' }, { name: 'deep', type: 'directory' }]);
  });

  it('reads what a pthread wrote while the program runs, and answers it', async () => {
    const { program, stdout } = await create(['dance']);
    programs.push(program);
    program.start();
    // fopen creates the file before fclose writes it: wait for the content, not the name
    const text = await until('the pthread file', async () => {
      const got = await program.files.readFile('/tmp/from-c.txt', 'utf8');
      if (!got) throw new Error('still empty');
      return got;
    });
    assert.equal(text, 'written by a pthread\n');
    // written under another name and renamed: the C side polls for the name, and a writeFile
    // (like Node's) creates the file before its bytes are in
    await program.files.writeFile('/tmp/answer.tmp', 'hello from JS');
    await program.files.rename('/tmp/answer.tmp', '/tmp/answer.txt');
    assert.deepEqual(await program.exited, { exitCode: 0, trap: undefined });
    assert.equal(stdout(), 'answer: hello from JS\n');
    assert.equal(await program.files.readFile('/tmp/after-exit.txt', 'utf8'), 'left at exit');
    program.dispose();
    await assert.rejects(program.files.readFile('/tmp/after-exit.txt'), /disposed/);
  });

  it('never shows a half-written file to either side while threads rewrite files', async () => {
    const { program, stdout } = await create(['churn']);
    programs.push(program);
    const { files } = program;
    program.start();
    // C's threads run once their workers have booted (the pool starts with main, docs/HOST.md):
    // wait for each one's first write, so that the rewrites below overlap theirs.
    const deadline = Date.now() + 20000;
    for (let id = 0; id < 3; id++) {
      while (!(await files.readFile(`/tmp/churn/c${id}`).catch(() => null))?.length) {
        assert.ok(Date.now() < deadline, `C's thread ${id} never wrote its file`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    let reads = 0;
    for (let k = 1; k <= 60; k++) {
      for (let id = 0; id < 3; id++) {
        await files.writeFile(`/tmp/churn/js${id}`, new Uint8Array(65536).fill(k)).catch((err) => {
          if (err.code !== 'ENOENT') throw err; // /tmp/churn not made yet
        });
        const got = await files.readFile(`/tmp/churn/c${id}`).catch((err) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
        if (got && got.length) {
          assert.equal(got.length, 65536);
          assert.ok(got.every((b) => b === got[0]), `torn read of /tmp/churn/c${id}`);
          reads++;
        }
      }
    }
    await files.writeFile('/tmp/stop', '');
    assert.deepEqual(await program.exited, { exitCode: 0, trap: undefined });
    assert.equal(stdout(), 'torn=0\n');
    assert.ok(reads > 100, `only ${reads} reads of C's files`);
  });

  it('rejects with the errno code and the path', async () => {
    const { program } = await create(['sum']);
    programs.push(program);
    const { files } = program;
    await files.writeFile('/tmp/f', 'x');
    const cases = [
      [() => files.readFile('/nope'), 'ENOENT', '/nope'],
      [() => files.readFile('/tmp'), 'EISDIR', '/tmp'],
      [() => files.readFile('/tmp/f/x'), 'ENOTDIR', '/tmp/f/x'],
      [() => files.writeFile('/tmp', 'x'), 'EISDIR', '/tmp'],
      [() => files.readdir('/tmp/f'), 'ENOTDIR', '/tmp/f'],
      [() => files.mkdir('/tmp'), 'EEXIST', '/tmp'],
      [() => files.mkdir('/a/b'), 'ENOENT', '/a/b'],
      [() => files.rmdir('/'), 'EBUSY', '/'],
      [() => files.unlink('/tmp'), 'EISDIR', '/tmp'],
      [() => files.stat('relative'), 'EINVAL', 'relative'],
      [() => files.stat(`/${'n'.repeat(300)}`), 'ENAMETOOLONG', `/${'n'.repeat(300)}`],
    ];
    for (const [call, code, path] of cases) {
      await assert.rejects(call(), (err) => {
        assert.equal(err.code, code, `${path}: ${err.message}`);
        assert.equal(err.path, path);
        return true;
      });
    }
    await files.mkdir('/tmp/d/e', { recursive: true });
    await files.mkdir('/tmp/d/e', { recursive: true }); // exists: fine, as in Node
    await assert.rejects(files.rmdir('/tmp/d'), { code: 'ENOTEMPTY' });
    await files.rename('/tmp/f', '/tmp/d/e/g');
    assert.equal(await files.readFile('/tmp/d/e/g', 'utf8'), 'x');
    await files.unlink('/tmp/d/e/g');
    await files.rmdir('/tmp/d/e');
    assert.deepEqual(await files.readdir('/tmp/d'), []);
    program.start();
    assert.equal((await program.exited).exitCode, 0);
  });

  it('works on a mounted host directory too (through pread/pwrite there)', async () => {
    const dir = join(out, 'mounted');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'host.txt'), 'from the host dir\n');
    const program = await createProgram(compiled, { args: ['files_probe', 'sum', '/m/js.txt'],
      mounts: [{ path: '/m', hostDir: dir }], stdout: openSync('/dev/null', 'w') });
    programs.push(program);
    const { files } = program;
    assert.equal(await files.readFile('/m/host.txt', 'utf8'), 'from the host dir\n');
    const big = Uint8Array.from({ length: 200000 }, (_, i) => i & 0xff);
    await files.writeFile('/m/js.txt', big);
    assert.deepEqual((await files.readdir('/m')).sort(), ['host.txt', 'js.txt']);
    program.start();
    assert.equal((await program.exited).exitCode, 0);
    assert.deepEqual(await files.readFile('/m/js.txt'), big);
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'js.txt'))), big);
  });

  it('says so when the module has no Spindle filesystem', async () => {
    const js = join(out, 'probe-fsjs.wasm');
    const r = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', '--fs=js', join(root, 'tests', 'files', 'files_probe.c'), '-o', js]);
    assert.equal(r.code, 0, r.stderr);
    const program = await createProgram(await compile(readFileSync(js)), { args: ['files_probe'], stderr: openSync('/dev/null', 'w') });
    await assert.rejects(program.files.stat('/tmp'), { code: 'ENOTSUP' });
    program.start();
    assert.equal((await program.exited).exitCode, 2);
    program.dispose();
  });
});

describe('spindle_fs_copy_pieces (runtime/fs/ops/host_copy.c)', () => {
  it('covers the range in chunk-sized pieces, with holes, natively under ASan+UBSan', async () => {
    mkdirSync(out, { recursive: true });
    const bin = join(out, 'copy_pieces');
    const fsSources = readdirSync(join(root, 'runtime', 'fs'), { recursive: true }).filter((f) => f.endsWith('.c'))
      .map((f) => join(root, 'runtime', 'fs', f));
    const build = await exec('clang-22', ['-std=gnu11', '-g', '-O1', '-Wall', '-Wextra', '-fsanitize=address,undefined',
      '-fno-sanitize-recover=undefined', '-I', join(root, 'runtime', 'include'), ...fsSources,
      join(root, 'tests', 'files', 'copy_pieces.c'), '-o', bin, '-lpthread']);
    assert.equal(build.code, 0, build.stderr);
    const r = await exec(bin, []);
    assert.equal(r.stdout, 'copy_pieces: ok\n', r.stderr);
    assert.equal(r.code, 0);
  });
});

describe('files API on a web page', () => {
  for (const browser of testBrowsers) {
    it(`writes before start, reads while running and after exit, from the page (${browserTitle[browser]})`, async () => {
      const files = { '/': join(root, 'tests', 'files', 'page.html'), '/probe.wasm': wasmPath };
      const result = await pageResult(files, { browser });
      assert.equal(result.error, undefined);
      assert.equal(result.fromC, 'written by a pthread\n');
      assert.equal(result.exitCode, 0);
      assert.equal(result.text, 'answer: from the page\n');
      assert.equal(result.afterExit, 'left at exit');
      assert.equal(result.bigSame, true);
      assert.equal(result.missing, 'ENOENT');
      assert.equal(result.ticks > 0, true, 'the page kept running while it waited');
    });
  }
});
