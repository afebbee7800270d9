// What a program may do to the host through a host-directory mount (docs/MOUNTS.md, "What a
// program may change on the host"): no setuid/setgid/sticky bits, symlinks that stay inside
// unless the mount allows any, a byte quota shared by all threads, names that are not UTF-8
// refused, overlapping mounts refused, the mount's root checked like any other directory, and
// --max-threads. tests/mount/programs/limits.c runs each check; natively it gives Linux's answers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { compile, runProgram } from '../host/index.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'mount');
const source = join(root, 'tests', 'mount', 'programs', 'limits.c');
const wasm = join(out, 'limits.wasm');
const native = join(out, 'limits.native');
let host;

before(async () => {
  mkdirSync(out, { recursive: true });
  host = mkdtempSync(join(tmpdir(), 'spindle-limits-'));
  const [cc, nat] = await Promise.all([
    exec(spindle, ['cc', '-O2', source, '-o', wasm]),
    exec('clang-22', ['-O2', '-pthread', '-w', source, '-o', native]),
  ]);
  assert.equal(cc.code, 0, cc.stderr);
  assert.equal(nat.code, 0, nat.stderr);
});
after(() => rmSync(host, { recursive: true, force: true }));

// A fresh host directory under the test's own.
function fresh(name) {
  const dir = join(host, name);
  mkdirSync(dir);
  return dir;
}

// Runs `limits CHECK /m` on a fresh directory mounted with the given options (`,quota=1M`).
async function onMount(check, options = '', dir = fresh(`${check}${options.replace(/\W/g, '-')}`)) {
  const r = await exec(spindle, ['run', `--mount=/m=${dir}${options}`, wasm, check, '/m']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return r.stdout;
}

async function onLinux(check) {
  const r = await exec(native, [check, fresh(`${check}-native`)]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

describe('mount limits', () => {
  it('host files get no setuid, setgid or sticky bit (Linux keeps them)', async () => {
    const dir = fresh('modes');
    assert.equal(await onMount('modes', '', dir), [
      'create 07777: ok',
      'mkdir 07777: ok',
      'special bits: file 0, directory 0',
      'chmod 04755: ok',
      '',
    ].join('\n'));
    for (const name of ['suid', 'sdir']) assert.equal(statSync(join(dir, name)).mode & 0o7000, 0, name);
    if (process.getuid?.() === 0) assert.match(await onLinux('modes'), /special bits: file 7000, directory 1000/);
  });

  it('chmod and fchmod set the host file\'s mode, less setuid/setgid/sticky', async () => {
    const dir = fresh('chmod');
    const linux = await onLinux('chmod');
    assert.match(linux, /^create 0600: ok, mode 600\nchmod 0644: ok, mode 644\n/);
    // the same answers as Linux, the special bits dropped
    const expected = linux.replace(/mode [1-7]([0-7]{3})$/gm, 'mode $1');
    assert.equal(await onMount('chmod', '', dir), expected);
    assert.match(expected, /chmod 04755: ok, mode 755\n/);
    assert.equal(statSync(join(dir, 'made-0600')).mode & 0o7777, 0o444);
    assert.equal(statSync(join(dir, 'dir')).mode & 0o7777, 0o755);
  });

  it('symlinks leaving the mount are EPERM by default, as Linux with symlinks=any', async () => {
    const linux = await onLinux('symlinks');
    assert.equal(await onMount('symlinks', ',symlinks=any'), linux);
    const leaving = /^symlink \S+ at \S*out-\S+: /;
    const expected = linux.split('\n').map((line) => (leaving.test(line) ? line.replace(/ok$/, 'EPERM') : line)).join('\n');
    assert.match(expected, /out-abs: EPERM/);
    assert.equal(await onMount('symlinks'), expected);
  });

  it('a quota gives ENOSPC to writes, ftruncate and creates past it; shrinking gives bytes back', async () => {
    const dir = fresh('quota');
    assert.equal(await onMount('quota', ',quota=1M', dir), [
      'wrote 16 chunks, then ENOSPC',
      'create when full: ENOSPC',
      'mkdir when full: ENOSPC',
      'symlink when full: ENOSPC',
      'open existing when full: ok',
      'rewrite inside: ok',
      'ftruncate 512K: ok',
      'ftruncate 1M: ok',
      'ftruncate 1M+1: ENOSPC',
      'small write: ENOSPC',
      'fsync: ok',
      'O_TRUNC: ok',
      'after O_TRUNC wrote 16 chunks',
      '',
    ].join('\n'));
    assert.deepEqual(readdirSync(dir), ['a']);
    assert.equal(statSync(join(dir, 'a')).size, 1 << 20);
  });

  it('the quota holds across threads and I/O workers', async () => {
    assert.equal(await onMount('threads', ',quota=1M'), '4 threads wrote 16 chunks\n');
    const program = await compile(readFileSync(wasm));
    for (const ioWorkers of [0, 2]) {
      const dir = fresh(`threads-api-${ioWorkers}`);
      // (in Node the program writes its stdout to this fd itself)
      const outFile = join(host, `threads-api-${ioWorkers}.out`);
      const stdout = openSync(outFile, 'w');
      let result;
      try {
        result = await runProgram(program, { args: ['limits', 'threads', '/m'], stdout,
          mounts: [{ path: '/m', hostDir: dir, quota: 1 << 20, ioWorkers }] });
      } finally {
        closeSync(stdout);
      }
      assert.equal(result.exitCode, 0, result.trap);
      assert.equal(readFileSync(outFile, 'utf8'), '4 threads wrote 16 chunks\n');
      const total = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
      assert.equal(total, 1 << 20, `ioWorkers ${ioWorkers}`);
    }
  });

  it('names that are not UTF-8 are refused with EILSEQ, and listed as their bytes', async () => {
    const dir = fresh('names');
    writeFileSync(Buffer.from(`${dir}/raw\xff`, 'latin1'), 'x');
    const lines = (await onMount('names', '', dir)).trim().split('\n');
    assert.deepEqual(lines.slice(0, 3), ['create bad\\xff: EILSEQ', 'create bad\\xef\\xbf\\xbd: ok', 'open raw\\xff: EILSEQ']);
    // (the listing's order is the host's)
    assert.deepEqual(lines.slice(3).sort(), ['listed bad\\xef\\xbf\\xbd', 'listed raw\\xff']);
    assert.deepEqual(readdirSync(dir, { encoding: 'buffer' }).map((b) => b.toString('latin1')).sort(), ['bad\xef\xbf\xbd', 'raw\xff']);
  });

  it('the mount\'s root is checked like any other directory (swapped for a symlink: EXDEV)', async () => {
    const base = fresh('root');
    const dir = join(base, 'root');
    mkdirSync(dir);
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret'), '');
    const child = spawn(spindle, ['run', `--mount=/m=${dir}`, wasm, 'root', '/m'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
      if (stdout === 'ready\n') {
        renameSync(dir, join(base, 'moved'));
        symlinkSync('outside', dir);
        child.stdin.end('swapped\n');
      }
    });
    child.stderr.on('data', (c) => { stderr += c; });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'ready\nopendir after the swap: EXDEV\n');
  });

  it('overlapping host directories and bad mount options are refused before the program runs', async () => {
    const jail = fresh('jail');
    mkdirSync(join(jail, 'sub'));
    symlinkSync(jail, join(host, 'jail-link'));
    const cases = [
      [[`--mount=/a=${jail}`, `--mount=/b=${join(jail, 'sub')}`], /mount \/b: .* inside that of mount \/a .*must not overlap/],
      [[`--mount=/b=${join(jail, 'sub')}`, `--mount=/a=${jail}`], /mount \/b: .* inside that of mount \/a/],
      [[`--mount=/a=${jail}`, `--mount=/b=${jail}`], /mount \/a: .* the same host directory as mount \/b/],
      [[`--mount=/a=${jail}`, `--mount=/b=${join(host, 'jail-link')}`], /the same host directory/],
      [[`--mount=/a=${jail},symlinks=maybe`], /symlinks must be 'inside' or 'any'/],
      [[`--mount=/a=${jail},quota=lots`], /quota: 'lots' is not a size/],
      [['--mount=/a=opfs,quota=1M'], /options of host directories/],
      [['--max-threads=0'], /--max-threads=0: expected a positive integer/],
    ];
    for (const [args, pattern] of cases) {
      const r = await exec(spindle, ['run', ...args, wasm, 'modes', '/a']);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, pattern, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
    }
    assert.deepEqual(readdirSync(jail), ['sub']);
    const program = await compile(readFileSync(wasm));
    await assert.rejects(runProgram(program, { mounts: [{ path: '/a', hostDir: jail }, { path: '/b', hostDir: join(jail, 'sub') }] }),
      /must not overlap/);
    await assert.rejects(runProgram(program, { mounts: [{ path: '/a', hostDir: jail, quota: -1 }] }), /quota must be a number of bytes/);
  });

  it('spindle run --max-threads=N limits the threads alive at once', async () => {
    const src = join(root, 'tests', 'run', 'thread_limit.c');
    const limit = join(out, 'thread_limit.wasm');
    const cc = await exec(spindle, ['cc', '-O2', src, '-o', limit]);
    assert.equal(cc.code, 0, cc.stderr);
    const r = await exec(spindle, ['run', '--max-threads=3', limit]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ran 3 at once, then EAGAIN, again EAGAIN\nafter they ended: started\n');
    assert.match(r.stderr, /thread limit 3 reached/);
  });
});
