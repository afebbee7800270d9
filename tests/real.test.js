// Real third-party programs (tests/real/): SQLite 3.54.1, zstd 1.5.7 and Lua 5.4.9, fetched from
// crates.io at test time (pinned, sha256-checked, cached under build/real/), built with
// `spindle cc` and natively with clang-22; each Spindle run's output must equal the native run's
// line for line (only the RESULT timing line differs).
// - SQLite: several threads, each with its own connection, insert into and query one database
//   (SQLITE_THREADSAFE=1, busy timeout, the VFS named by SQLITE_VFS) on the in-memory FS, a host
//   directory mount, --fs=js and dlmalloc builds, and in Chromium on an OPFS mount;
// - zstd: compress with N worker threads, decompress, compare; a generated input in memory and a
//   host file through --mount, whose frame must equal the native frame byte for byte;
// - Lua: pcall/error, coroutines, files; skipped while the toolchain cannot compile setjmp;
// - examples/zstd-cli: a host file compressed with 4 threads through --mount equals the native
//   tool's .zst, and decompresses back to the same bytes;
// - examples/sqlite-opfs: its program twice on one host directory, its page twice on one
//   Chromium profile (the database persists in OPFS: the second run counts 2 visits).
// Sizes are trimmed for 2 cores; SPINDLE_TEST_LONG=1 runs the full sizes (4 x 20,000 rows,
// 64 MiB). The first run fetches and compiles (SQLite's amalgamation: ~30 s of CPU per target).
// SPINDLE_TEST_BROWSER=0 skips the Chromium cases.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serveExample } from '../examples/sqlite-opfs/serve.js';
import { openProfile } from './opfs/profile.js';
import { exec } from './lib/exec.js';
import { buildProgram, isSetjmpUnsupported, SQLITE_VFS, sqliteVfsFor } from './real/build.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const long = process.env.SPINDLE_TEST_LONG === '1';
const noBrowser = process.env.SPINDLE_TEST_BROWSER === '0' ? 'SPINDLE_TEST_BROWSER=0' : false;
const sqliteSize = long ? ['4', '20000'] : ['4', '1500'];
const zstdBytes = long ? 64 << 20 : 4 << 20;

let scratch;
before(() => { scratch = mkdtempSync(join(tmpdir(), 'spindle-real-')); });
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The deterministic part of a program's output: everything but the RESULT line. */
function lines(stdout) {
  return stdout.split('\n').filter((l) => l && !l.startsWith('RESULT '));
}

async function runNative(binary, args) {
  const r = await exec(binary, args, { timeoutMs: 300000 });
  assert.equal(r.code, 0, `native ${binary} ${args.join(' ')}:\n${r.stderr}`);
  return lines(r.stdout);
}

async function runSpindle(runArgs, wasm, args) {
  const r = await exec(process.execPath, [spindle, 'run', ...runArgs, wasm, ...args], { timeoutMs: 300000 });
  assert.equal(r.code, 0, `spindle run ${runArgs.join(' ')} ${wasm} ${args.join(' ')}:\n${r.stderr}\n${r.stdout.slice(-2000)}`);
  return lines(r.stdout);
}

describe('SQLite: threads with their own connections on one database', () => {
  const builds = {};
  let expected;
  before(async () => {
    [builds.native, builds.spindle] = await Promise.all([buildProgram('sqlite', { target: 'native' }), buildProgram('sqlite')]);
    expected = await runNative(builds.native, [join(scratch, 'native.db'), ...sqliteSize, SQLITE_VFS]);
    assert.ok(expected.includes('integrity ok') && expected.includes('sqlite 3.54.1 threadsafe 1'), expected.join('\n'));
  });

  it('in the in-memory filesystem: the same rows, sums and integrity as native', async () => {
    assert.deepEqual(await runSpindle([], builds.spindle, ['/tmp/real.db', ...sqliteSize, SQLITE_VFS]), expected);
  });

  it('on a host directory (--mount): the same output, and the host file is a SQLite database', async () => {
    const dir = mkdtempSync(join(scratch, 'mount-'));
    assert.deepEqual(await runSpindle([`--mount=/data=${dir}`], builds.spindle, ['/data/real.db', ...sqliteSize, SQLITE_VFS]), expected);
    assert.equal(readFileSync(join(dir, 'real.db')).subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
  });

  for (const [id, flags] of [['js-fs', ['--fs=js']], ['dlmalloc', ['--malloc=dlmalloc']]]) {
    it(`built with ${flags.join(' ')}: the same output`, async () => {
      const wasm = await buildProgram('sqlite', { ccFlags: flags, id });
      assert.deepEqual(await runSpindle([], wasm, ['/tmp/real.db', ...sqliteSize, sqliteVfsFor(flags)]), expected);
    });
  }

  it('in Chromium on an OPFS mount: the same output', { skip: noBrowser }, async () => {
    const sub = `real-sqlite-${process.pid}`;
    assert.deepEqual(await runSpindle(['--browser', `--mount=/data=opfs:${sub}`], builds.spindle,
      ['/data/real.db', ...sqliteSize, SQLITE_VFS]), expected);
  });
});

describe('zstd: multithreaded compression round trip', () => {
  const builds = {};
  before(async () => {
    [builds.native, builds.spindle] = await Promise.all([buildProgram('zstd', { target: 'native' }), buildProgram('zstd')]);
  });

  it('generated input, 4 workers: the same frame (size and hash) as native', async () => {
    const args = (out) => [`gen:${zstdBytes}`, out, '4', '3'];
    const expected = await runNative(builds.native, args(join(scratch, 'gen.zst')));
    assert.ok(expected.includes('round trip ok'), expected.join('\n'));
    assert.deepEqual(await runSpindle([], builds.spindle, args('/tmp/gen.zst')), expected);
  });

  it('a host file through --mount, 3 workers: the .zst written there equals the native one byte for byte', async () => {
    const dir = mkdtempSync(join(scratch, 'zstd-'));
    const input = Buffer.alloc(zstdBytes);
    let x = 7;
    for (let i = 0; i < input.length; i++) { x = (x * 1103515245 + 12345) >>> 0; input[i] = 97 + ((x >>> 16) % 8); }
    writeFileSync(join(dir, 'input.bin'), input);
    const expected = await runNative(builds.native, [join(dir, 'input.bin'), join(dir, 'native.zst'), '3', '5']);
    assert.deepEqual(await runSpindle([`--mount=/data=${dir}`], builds.spindle, ['/data/input.bin', '/data/spindle.zst', '3', '5']), expected);
    assert.ok(readFileSync(join(dir, 'spindle.zst')).equals(readFileSync(join(dir, 'native.zst'))));
  });

  it('in Chromium: the same frame as native', { skip: noBrowser }, async () => {
    const args = (out) => [`gen:${4 << 20}`, out, '2', '3'];
    const expected = await runNative(builds.native, args(join(scratch, 'browser.zst')));
    assert.deepEqual(await runSpindle(['--browser'], builds.spindle, args('/tmp/browser.zst')), expected);
  });
});

describe('Lua 5.4: errors, coroutines, files', () => {
  let wasm; let native; let unsupported = null;
  before(async () => {
    native = await buildProgram('lua', { target: 'native' });
    try {
      wasm = await buildProgram('lua');
    } catch (err) {
      if (!isSetjmpUnsupported(err)) throw err;
      unsupported = 'this toolchain cannot compile setjmp/longjmp yet (Lua raises errors with longjmp)';
    }
  });

  it('runs check.lua with the same output as native', async (t) => {
    if (unsupported) return t.skip(unsupported);
    const script = join(root, 'tests', 'real', 'check.lua');
    const expected = await runNative(native, [script, '200000', join(scratch, 'lua_check.txt')]);
    assert.ok(expected.includes('pcall\tfalse\ttable\t42'), expected.join('\n'));
    assert.deepEqual(await runSpindle([`--preload=${script}@/check.lua`], wasm, ['/check.lua', '200000', '/tmp/lua_check.txt']), expected);
  });
});

describe('examples/sqlite-opfs', () => {
  let wasm;
  before(async () => { wasm = await buildProgram('sqlite', { source: join(root, 'examples', 'sqlite-opfs', 'catalog.c') }); });
  const answers = ['thread 0: items = 5000', 'thread 1: cheapest in shelf 3 = 1.1', 'thread 2: average price = 49.95',
    'thread 3: shelves over 100 = 50'];

  it('on a host directory: four query threads answer; a second run finds the database and counts 2 visits', async () => {
    const dir = mkdtempSync(join(scratch, 'catalog-'));
    const first = await runSpindle([`--mount=/data=${dir}`], wasm, ['/data/catalog.db', '4']);
    assert.deepEqual(first, ['created /data/catalog.db with 5000 items', ...answers, 'visits so far: 1']);
    const second = await runSpindle([`--mount=/data=${dir}`], wasm, ['/data/catalog.db', '4']);
    assert.deepEqual(second, [...answers, 'visits so far: 2']);
  });

  it('the page in Chromium: the same answers, and after reopening the browser the OPFS database counts 2 visits', { skip: noBrowser }, async () => {
    const server = await serveExample();
    const profile = mkdtempSync(join(scratch, 'profile-'));
    const visit = async () => {
      const b = await openProfile(profile, `${server.url}/`);
      try {
        await b.page.waitForFunction(() => window.spindleResult, null, { timeout: 120000 });
        return await b.page.evaluate(() => window.spindleResult);
      } finally {
        await b.close();
      }
    };
    try {
      const first = await visit();
      assert.equal(first.exitCode, 0, first.output);
      assert.deepEqual(lines(first.output).slice(0, 6), ['created /data/catalog.db with 5000 items', ...answers, 'visits so far: 1']);
      const second = await visit();
      assert.deepEqual(lines(second.output).slice(0, 5), [...answers, 'visits so far: 2']);
    } finally {
      server.close();
    }
  });
});

describe('examples/zstd-cli', () => {
  it('compresses a host file with 4 threads via --mount to the native bytes, and decompresses it back', async () => {
    const source = join(root, 'examples', 'zstd-cli', 'zstd_cli.c');
    const wasm = await buildProgram('zstd', { source });
    const native = await buildProgram('zstd', { source, target: 'native' });
    const dir = mkdtempSync(join(scratch, 'zstd-cli-'));
    const text = Array.from({ length: 60000 }, (_, i) => `line ${i}: ${(i * 2654435761 >>> 0).toString(36)}\n`).join('');
    writeFileSync(join(dir, 'input.txt'), text);
    await runNative(native, ['compress', join(dir, 'input.txt'), join(dir, 'native.zst'), '4']);
    await runSpindle([`--mount=/data=${dir}`], wasm, ['compress', '/data/input.txt', '/data/input.txt.zst', '4']);
    assert.ok(readFileSync(join(dir, 'input.txt.zst')).equals(readFileSync(join(dir, 'native.zst'))));
    await runSpindle([`--mount=/data=${dir}`], wasm, ['decompress', '/data/input.txt.zst', '/data/back.txt']);
    assert.equal(readFileSync(join(dir, 'back.txt'), 'utf8'), text);
  });
});
