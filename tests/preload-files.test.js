// Preloaded files: `spindle cc --preload-file` (a custom section in the module) and
// `spindle run --preload` put files and directory trees into the in-memory tree before main;
// a C program sees them in Node and in Chromium, symlinks as symlinks and every entry with the
// host's mode and times, as native Linux sees the host tree. Bad inputs give clear errors.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, lutimesSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { collectPreload, packPreloadFiles } from '../cli/common/preload-files.js';
import { parsePreload } from '../host/files/preload.js';
import { compile, createProgram } from '../host/index.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'preload');
const tree = join(out, 'tree');
const single = join(out, 'single.txt');
const plain = join(out, 'probe.wasm');
const packed = join(out, 'probe-preloaded.wasm');
const browser = process.env.SPINDLE_TEST_BROWSER !== '0';

const binary = Uint8Array.from({ length: 4096 + 17 }, (_, i) => (i * 13) % 256);
const big = Uint8Array.from({ length: (6 << 20) + 5 }, (_, i) => (i ^ (i >> 11)) & 0xff);

function fnv(bytes) {
  let h = 2166136261;
  for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
  return h.toString(16).padStart(8, '0');
}
const line = (path, bytes) => `${path} size=${bytes.length} fnv=${fnv(bytes)}`;
const text = (s) => new TextEncoder().encode(s);

/** What files_probe prints for the tree preloaded at `at`. */
function expectTree(at) {
  return [
    line(`${at}/a/b/c/deep.txt`, text('deep down\n')),
    line(`${at}/bin`, binary),
    line(`${at}/empty`, new Uint8Array()),
    line(`${at}/big`, big),
    `${at}/a/b: c x.txt`,
  ];
}
const treeArgs = (at) => [`${at}/a/b/c/deep.txt`, `${at}/bin`, `${at}/empty`, `${at}/big`];

async function probe(wasm, { runFlags = [], at }) {
  const args = ['run', ...runFlags, wasm, 'sum', ...treeArgs(at), '/etc/single.txt'];
  const sums = await exec(spindle, args);
  assert.equal(sums.code, 0, sums.stderr);
  const listing = await exec(spindle, ['run', ...runFlags, wasm, 'list', `${at}/a/b`]);
  assert.equal(listing.code, 0, listing.stderr);
  return (sums.stdout + listing.stdout).trimEnd().split('\n');
}

describe('preloaded files', () => {
  before(async () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(join(tree, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(join(tree, 'a', 'b', 'c', 'deep.txt'), 'deep down\n');
    writeFileSync(join(tree, 'a', 'b', 'x.txt'), 'x');
    writeFileSync(join(tree, 'bin'), binary);
    writeFileSync(join(tree, 'empty'), '');
    writeFileSync(join(tree, 'big'), big);
    writeFileSync(single, 'single file\n');
    const src = join(root, 'tests', 'files', 'files_probe.c');
    let r = await exec(spindle, ['cc', '-O2', src, '--preload-file', `${tree}@/assets`,
      `--preload-file=${single}@/etc/single.txt`, '-o', packed]);
    assert.equal(r.code, 0, r.stderr);
    r = await exec(spindle, ['cc', '-O2', src, '-o', plain]);
    assert.equal(r.code, 0, r.stderr);
  });

  const single_ = line('/etc/single.txt', text('single file\n'));
  const withSingle = (lines) => [...lines.slice(0, 4), single_, lines[4]];

  it('cc --preload-file: a file and a directory tree (nested, binary, empty, 6 MiB) in Node', async () => {
    assert.deepEqual(await probe(packed, { at: '/assets' }), withSingle(expectTree('/assets')));
  });

  it('cc --preload-file in Chromium', { skip: !browser }, async () => {
    assert.deepEqual(await probe(packed, { runFlags: ['--browser'], at: '/assets' }), withSingle(expectTree('/assets')));
  });

  const runPreload = [`--preload=${tree}@/p`, '--preload', `${single}@/etc/single.txt`];
  it('run --preload in Node, also on top of a module\'s own preloaded files', async () => {
    assert.deepEqual(await probe(plain, { runFlags: runPreload, at: '/p' }), withSingle(expectTree('/p')));
    const both = await exec(spindle, ['run', `--preload=${single}@/assets/bin`, packed, 'sum', '/assets/bin', '/assets/empty']);
    assert.equal(both.stdout, `${line('/assets/bin', text('single file\n'))}\n${line('/assets/empty', new Uint8Array())}\n`);
  });

  it('run --preload of a file where the module preloaded a link replaces the link, as it does a file', async () => {
    const linkTree = join(out, 'link-tree');
    mkdirSync(linkTree);
    writeFileSync(join(linkTree, 'target'), 'target\n');
    symlinkSync('target', join(linkTree, 'link'));
    const wasm = join(out, 'probe-link.wasm');
    const cc = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'files', 'files_probe.c'),
      `--preload-file=${linkTree}@/l`, '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    // before, the file went through the link: /l/target held it too
    const r = await exec(spindle, ['run', `--preload=${single}@/l/link`, wasm, 'sum', '/l/link', '/l/target']);
    assert.equal(r.stdout, `${line('/l/link', text('single file\n'))}\n${line('/l/target', text('target\n'))}\n`, r.stderr);
  });

  // The C main's own thread puts them in (host/files/preload-serve.js): no service thread and no
  // event loop needed, so main stays on Node's main thread.
  it('run --preload keeps the C main on Node\'s main thread; in a worker it works the same', async () => {
    for (const where of ['here', 'worker']) {
      const env = { ...process.env, SPINDLE_DEBUG: '1', SPINDLE_MAIN_THREAD: where };
      const r = await exec(spindle, ['run', `--preload=${single}@/assets/bin`, packed, 'sum', '/assets/bin', '/etc/single.txt'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, where === 'here' ? /C main: on Node's main thread/ : /C main: in a worker/);
      assert.equal(r.stdout, `${line('/assets/bin', text('single file\n'))}\n${single_}\n`);
    }
  });

  it('a step that fails in the tree ends the run with 134 and says which, before any of the program\'s code', async () => {
    // the run's directory goes where the module preloaded a file
    for (const where of ['here', 'worker']) {
      const r = await exec(spindle, ['run', `--preload=${tree}@/etc/single.txt`, packed, 'sum', '/etc/single.txt'],
        { env: { ...process.env, SPINDLE_MAIN_THREAD: where } });
      assert.equal(r.code, 134, `${where}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, 'spindle: thread main: preloading files failed: mkdir /etc/single.txt: it is there and not a directory\n');
    }
  });

  it('run --preload in Chromium', { skip: !browser }, async () => {
    assert.deepEqual(await probe(plain, { runFlags: ['--browser', ...runPreload], at: '/p' }), withSingle(expectTree('/p')));
  });

  it('refuses bad inputs with a clear message', async () => {
    const src = join(root, 'tests', 'files', 'files_probe.c');
    const o = join(out, 'bad.wasm');
    const long = 'n'.repeat(256);
    for (const [args, message] of [
      [['--preload-file', join(out, 'missing')], /--preload-file=.*missing: no such file or directory/],
      [['--preload-file', `${single}@etc/x`], /the target path 'etc\/x' is not absolute/],
      [['--preload-file', `${single}@/${long}`], /is longer than 255 bytes/],
      [['--preload-file', `${single}@/${'d/'.repeat(2100)}x`], /target path is longer than 4095 bytes/],
      [['--preload-file', '../x'], /a path with '..' needs an explicit target/],
      [['--fs=js', '--preload-file', single], /--preload-file needs the Spindle filesystem/],
      [['-o', o, '--preload-file'], /give a file or directory/],
    ]) {
      const r = await exec(spindle, ['cc', src, '-o', o, ...args]);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, message);
    }
    const r = await exec(spindle, ['run', `--preload=${join(out, 'missing')}@/x`, plain, 'sum']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--preload=.*missing@\/x: .*missing: no such file or directory/);
    const js = join(out, 'probe-fsjs.wasm');
    assert.equal((await exec(spindle, ['cc', '--fs=js', src, '-o', js])).code, 0);
    const r2 = await exec(spindle, ['run', `--preload=${single}@/x`, js, 'sum']);
    assert.notEqual(r2.code, 0);
    assert.match(r2.stderr, /preloaded files need a module built with spindle cc --fs=spindle/);
  });
});

describe('preloaded files keep what the host has: symlinks, modes and times', () => {
  // Preloaded at its own host path, so that the absolute link resolves the same in both.
  const attrs = join(out, 'attrs');
  const probeSrc = join(root, 'tests', 'files', 'preload_attrs.c');
  const withTree = join(out, 'attrs-preloaded.wasm');
  const bare = join(out, 'attrs.wasm');
  const native = join(out, 'attrs.native');
  const names = ['abs', 'dangling', 'loop', 'loop/loop/old.txt', 'old.txt', 'private.txt', 'rel', 'sub', 'sub/inner.txt'];
  const times = {
    '.': 1500000000.25, 'old.txt': 1000000000.123456, 'private.txt': 1600000000, sub: 1400000000.5,
    'sub/inner.txt': 1300000000, abs: 1200000000, dangling: 1100000000.75, loop: 1050000000, rel: 1010000000,
  };
  // Reading the host tree (packing it) may move its atimes: every run starts from these times.
  const setTimes = () => {
    for (const [name, t] of Object.entries(times)) lutimesSync(join(attrs, name), t - 86400 * 30, t);
  };
  let expected;

  before(async () => {
    rmSync(attrs, { recursive: true, force: true });
    mkdirSync(join(attrs, 'sub'), { recursive: true });
    writeFileSync(join(attrs, 'old.txt'), 'old\n');
    writeFileSync(join(attrs, 'private.txt'), 'private\n');
    chmodSync(join(attrs, 'private.txt'), 0o640);
    writeFileSync(join(attrs, 'sub', 'inner.txt'), 'inner');
    chmodSync(join(attrs, 'sub'), 0o750);
    symlinkSync('sub/inner.txt', join(attrs, 'rel'));
    symlinkSync(join(attrs, 'old.txt'), join(attrs, 'abs'));
    symlinkSync('nowhere', join(attrs, 'dangling'));
    symlinkSync('.', join(attrs, 'loop'));
    const nat = await exec('clang-22', ['-O2', probeSrc, '-o', native]);
    assert.equal(nat.code, 0, nat.stderr);
    setTimes();
    const r = await exec(spindle, ['cc', '-O2', probeSrc, '--preload-file', `${attrs}@${attrs}`, '-o', withTree]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await exec(spindle, ['cc', '-O2', probeSrc, '-o', bare])).code, 0);
    setTimes();
    const n = await exec(native, [attrs, ...names]);
    assert.equal(n.code, 0, n.stderr);
    expected = n.stdout;
    assert.match(expected, /^dangling: lstat=link mode=0777 size=7 .* readlink=nowhere stat=ENOENT$/m, expected);
  });

  it('cc --preload-file: what the program sees equals what Linux sees (Node)', async () => {
    const r = await exec(spindle, ['run', withTree, attrs, ...names]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, expected);
  });

  for (const runFlags of [[], ['--browser']]) {
    it(`run --preload${runFlags.length ? ' in Chromium' : ' in Node'}: the same`, { skip: runFlags.length > 0 && !browser }, async () => {
      setTimes();
      const r = await exec(spindle, ['run', ...runFlags, `--preload=${attrs}@${attrs}`, bare, attrs, ...names]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, expected);
    });
  }

  it('keeps ctime too (which Linux cannot set); setuid, setgid and sticky are dropped', async () => {
    setTimes();
    const host = lstatSync(join(attrs, 'old.txt'), { bigint: true });
    const preload = packPreloadFiles([`${attrs}@/t`], '--preload');
    const program = await createProgram(await compile(readFileSync(bare)), { args: ['attrs'], preload });
    try {
      const st = await program.files.stat('/t/old.txt');
      assert.equal(st.ctimeMs, Number(host.ctimeNs) / 1e6);
      assert.equal(st.mtimeMs, Number(host.mtimeNs) / 1e6);
      const listing = await program.files.readdir('/t', { withFileTypes: true });
      assert.deepEqual(listing.filter((e) => e.type === 'symlink').map((e) => e.name).sort(), ['abs', 'dangling', 'loop', 'rel']);
      await program.files.symlink('old.txt', '/t/again');
      assert.equal((await program.files.stat('/t/again')).size, 4);
      await assert.rejects(program.files.symlink('x', '/t/again'), { code: 'EEXIST' });
    } finally {
      program.dispose();
    }
    const special = join(out, 'special');
    writeFileSync(special, '');
    chmodSync(special, 0o7755);
    assert.equal(collectPreload([`${special}@/s`], '--preload').at(-1).mode, 0o755);
  });

  it('still reads version 1 sections (no times, no links) of modules built before', () => {
    const v1 = new Uint8Array(12 + 21 + 2 + 1);
    const view = new DataView(v1.buffer);
    [0x4c505053, 1, 1].forEach((n, i) => view.setUint32(i * 4, n, true));
    view.setUint8(12, 2);
    view.setUint32(13, 0o600, true);
    view.setUint32(17, 2, true);
    view.setBigUint64(21, 1n, true);
    v1.set(text('/fx'), 33);
    const [entry] = parsePreload(v1);
    assert.deepEqual({ ...entry, data: [...entry.data] }, { kind: 2, mode: 0o600, path: '/f', data: [0x78], times: null });
  });
});
