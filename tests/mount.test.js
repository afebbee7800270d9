// Mounts of host directories in Node (docs/MOUNTS.md): confinement against hostile paths and a
// rename race, durability across a kill, two threads reading two files, the CLI's errors, the
// host API option, and the conformance programs on a mount (tests/fs/run-conformance.sh --mount).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildFromSource } from './lib/build-cache.js';
import { exec } from './lib/exec.js';
import { compile, createProgram, runProgram } from '../host/index.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'mount');
const programs = join(root, 'tests', 'mount', 'programs');
let host;

async function build(name) {
  const [source, wasm] = [join(programs, `${name}.c`), join(out, `${name}.wasm`)];
  // (kept for the next lane of scripts/test.sh: tests/lib/build-cache.js)
  const r = await buildFromSource(spindle, ['cc', '-O2', source, '-o', wasm], source, wasm);
  assert.equal(r.code, 0, r.stderr);
  return join(out, `${name}.wasm`);
}

// Runs until the program prints "ready", then kills it (the whole Node process) with SIGKILL.
function runUntilReady(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(spindle, ['run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
      if (stdout.includes('ready')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

before(() => {
  mkdirSync(out, { recursive: true });
  host = mkdtempSync(join(tmpdir(), 'spindle-mount-'));
});
after(() => rmSync(host, { recursive: true, force: true }));

describe('host-directory mounts', () => {
  it('refuses hostile paths: .., absolute symlinks, symlinks out, a rename race, cross-mount renames', async () => {
    const wasm = await build('hostile');
    const base = join(host, 'hostile');
    mkdirSync(join(base, 'root', 'sub'), { recursive: true });
    mkdirSync(join(base, 'root2'));
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret'), 'OUTSIDE');
    writeFileSync(join(base, 'root', 'sub', 'file'), 'INSIDE');
    symlinkSync('/etc', join(base, 'root', 'abs'));
    symlinkSync('../outside/secret', join(base, 'root', 'out'));
    symlinkSync('../outside', join(base, 'root', 'dirout'));
    symlinkSync('sub/../../outside', join(base, 'root', 'deep'));
    symlinkSync('sub/file', join(base, 'root', 'in'));
    // (symlinks=any: the program makes symlinks pointing out, to check they are never followed)
    const r = await exec(spindle, ['run', `--mount=/m=${join(base, 'root')},symlinks=any`, `--mount=/m2=${join(base, 'root2')}`, wasm]);
    assert.equal(r.code, 0, r.stderr);
    // links leading out resolve in the program's tree (no /etc nor /outside there: ENOENT);
    // the operations that cannot go on there give EXDEV
    assert.equal(r.stdout, [
      'open /m/in: ok INSIDE',
      'open /m/abs/passwd: ENOENT',
      'open /m/abs: ENOENT',
      'open /m/out: ENOENT',
      'open /m/dirout/secret: ENOENT',
      'open /m/deep/secret: ENOENT',
      'open /m/sub/../../outside/secret: ENOENT',
      'open /m/../m/sub/file: ok INSIDE',
      'stat dirout: ENOENT',
      'lstat dirout: ok',
      'readlink abs: ok /etc',
      'symlink pointing out: ok',
      'open /m/made: ENOENT',
      'create through dirout: ENOENT',
      'mkdir through abs: EXDEV',
      'unlink through dirout: EXDEV',
      'rename through dirout: EXDEV',
      'rename to another mount: EXDEV',
      'rename to memory: EXDEV',
      'rename from memory: EXDEV',
      'link to another mount: EXDEV',
      'rmdir mount point: EBUSY',
      'race symlink: ok',
      'race: 6000 opens, escaped 0, some inside reads: yes',
      '',
    ].join('\n'));
    assert.equal(readFileSync(join(base, 'outside', 'secret'), 'utf8'), 'OUTSIDE');

    // the same race, the swaps done by another process (this one) while the program opens
    const race = join(base, 'root', 'race2');
    mkdirSync(join(race, 'd'), { recursive: true });
    writeFileSync(join(race, 'd', 'secret'), 'inside');
    symlinkSync('../../outside', join(race, 'link'));
    const running = exec(spindle, ['run', `--mount=/m=${join(base, 'root')}`, wasm, 'external-race']);
    let done = false;
    running.then(() => { done = true; });
    let swaps = 0;
    while (!done) {
      for (let i = 0; i < 50; i++, swaps++) {
        renameSync(join(race, 'd'), join(race, 'real'));
        renameSync(join(race, 'link'), join(race, 'd'));
        renameSync(join(race, 'd'), join(race, 'link'));
        renameSync(join(race, 'real'), join(race, 'd'));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ext = await running;
    assert.equal(ext.code, 0, ext.stderr);
    assert.match(ext.stdout, /^external race: 6000 opens, escaped 0$/m, `${ext.stdout} (${swaps} swaps)`);
  });

  it('keeps data written before fsync or close when the process is killed', async () => {
    const wasm = await build('durable');
    const dir = join(host, 'durable');
    mkdirSync(dir);
    const lines = (name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).length;
    for (const mode of ['fsync', 'close']) {
      const r = await runUntilReady([`--mount=/d=${dir}`, wasm, mode, `/d/${mode}`]);
      assert.equal(r.signal, 'SIGKILL', r.stderr);
      assert.equal(lines(mode), 3000, mode);
    }
    // normal exit without close
    const r = await exec(spindle, ['run', `--mount=/d=${dir}`, wasm, 'exit', '/d/exit']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lines('exit'), 3000);
    // killed without fsync or close: every small write returned for is in the file
    // (tests/mount-crash.test.js tries every way a program ends)
    const k = await runUntilReady([`--mount=/d=${dir}`, wasm, 'nosync', '/d/nosync']);
    assert.equal(k.signal, 'SIGKILL');
    assert.equal(lines('nosync'), 3000);
  });

  it('two threads read two mounted files (every byte checked)', async () => {
    const wasm = await build('parallel_read');
    const dir = join(host, 'parallel');
    mkdirSync(dir);
    const r = await exec(spindle, ['run', `--mount=/p=${dir}`, wasm, '/p', '32', '4']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /bad reads 0/);
    console.log(`    ${r.stdout.trim()}`);
  });

  // Builds tests/mount/programs/NAME.c and runs it on a fresh host directory mounted at /m.
  async function runOnMount(name) {
    const wasm = await build(name);
    const dir = join(host, name);
    mkdirSync(dir);
    const r = await exec(spindle, ['run', `--mount=/m=${dir}`, wasm, '/m']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return r.stdout;
  }

  it('symlinks leading out of a mount resolve in the program\'s tree, never on the host (std::filesystem walk)', async () => {
    const wasm = join(out, 'links_out.wasm');
    const cc = await exec(spindle, ['c++', '-O2', join(programs, 'links_out.cc'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    const top = join(host, 'links-out');
    const jail = join(top, 'jail');
    mkdirSync(join(jail, 'sub'), { recursive: true });
    writeFileSync(join(jail, 'file'), 'in\n');
    writeFileSync(join(jail, 'sub', 'inner'), 'inner\n');
    const canary = join(top, 'canary'); // a host file outside the mount, which each link names
    writeFileSync(canary, 'HOST-CANARY\n');
    const links = {
      'abs-file': '/outside/x', 'abs-dir': '/outside', up: '../outside', deep: 'sub/../../outside/x',
      passwd: '/etc/passwd', 'canary-up': '../canary', 'canary-abs': canary,
      'canary-far': `${'../'.repeat(12)}${canary.slice(1)}`,
    };
    for (const [name, target] of Object.entries(links)) symlinkSync(target, join(jail, name));
    const r = await exec(spindle, ['run', `--mount=/m=${jail}`, wasm, '/m']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const listing = (more) => [
      ...more, 'abs-dir: symlink -> dir', 'abs-file: symlink -> file', 'canary-abs: symlink -> missing',
      'canary-far: symlink -> missing', 'canary-up: symlink -> missing', 'deep: symlink -> file',
      'file: file -> file', 'passwd: symlink -> missing', 'sub/inner: file -> file', 'sub: dir -> dir',
    ].sort().map((line) => `  ${line}`);
    assert.equal(r.stdout, [
      'walk:', ...listing(['up: symlink -> dir']),
      'walk following directory links:', ...listing(['abs-dir/x: file -> file', 'up/x: file -> file', 'up: symlink -> dir']),
      'abs-file: file, memory', 'abs-dir: dir, ', 'up: dir, ', 'deep: file, memory',
      'passwd: missing, (No such file or directory)', 'canary-up: missing, (No such file or directory)',
      'canary-abs: missing, (No such file or directory)', 'canary-far: missing, (No such file or directory)',
      'abs-dir/x: memory', 'up/../outside/x: memory', 'made through abs-dir: made', 'chmod through up: 0, mode 600', '',
    ].join('\n'));
    assert.doesNotMatch(r.stdout + r.stderr, /HOST-CANARY/);
    assert.equal(readFileSync(canary, 'utf8'), 'HOST-CANARY\n');
    assert.deepEqual(readdirSync(top).sort(), ['canary', 'jail']); // nothing made on the host
    assert.deepEqual(readdirSync(jail).sort(), ['file', 'sub', ...Object.keys(links)].sort());
  });

  it('readdir\'s d_ino is st_ino for every entry, . and .. included', async () => {
    assert.match(await runOnMount('dirent_ino'), /entries 9 mismatches 0/); // root: . .. a b sub link; sub: . .. c
  });

  it('fd queries on a mount file: posix_fadvise validates the fd, isatty, fdopen, fdopendir', async () => {
    assert.match(await runOnMount('fd_queries'), /failures 0/);
  });

  // A tests/programs program run with a directory on a mount, and natively with the host directory
  // (`dirMode`: that directory's mode, 0777 where the native run, as an ordinary user, writes in it).
  async function sameOnMountAsNative(name, dirMode = 0o755) {
    const src = join(root, 'tests', 'programs', `${name}.c`);
    const wasm = join(out, `${name}.wasm`);
    const native = join(out, `${name}.native`);
    const cc = await exec(spindle, ['cc', '-O2', src, '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    const nat = await exec('clang-22', ['-O2', '-pthread', '-w', src, '-o', native]);
    assert.equal(nat.code, 0, nat.stderr);
    const dir = join(host, name);
    mkdirSync(dir);
    chmodSync(dir, dirMode);
    const expected = await exec(native, [dir]);
    assert.equal(expected.code, 0, expected.stderr);
    const r = await exec(spindle, ['run', `--mount=/m=${dir}`, wasm, '/m']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, expected.stdout);
  }

  it('directory streams on a mount give Linux\'s output (tests/programs/posix_dirent.c: d_reclen, d_off, seekdir, scandir...)', async () => {
    await sameOnMountAsNative('posix_dirent');
  });

  it('getdents64 on a mount gives Linux\'s output (tests/programs/posix_getdents.c: positions, lseek, errors)', async () => {
    await sameOnMountAsNative('posix_getdents');
  });

  it('access() on a mount answers by the mode bits, as Linux answers the owner (tests/programs/posix_access_modes.c)', async () => {
    chmodSync(host, 0o755); // natively the program gives up root in a folder of its own in there
    await sameOnMountAsNative('posix_access_modes');
  });

  it('permissions on a mount are checked as Linux checks its ordinary owner, though the host runs as root (tests/programs/posix_permissions.c)', async () => {
    chmodSync(host, 0o755); // the native run gives up root, then works in a folder of its own in there
    await sameOnMountAsNative('posix_permissions', 0o777);
  });

  // The files preopen_permissions.c expects, owned by the ordinary user (uid 1000), whose
  // owner bits Linux then checks for the native run.
  function permissionTree(dir) {
    mkdirSync(dir);
    for (const sub of ['locked', 'nosearch', 'movable', 'writable']) mkdirSync(join(dir, sub));
    writeFileSync(join(dir, 'ro.txt'), 'original');
    writeFileSync(join(dir, 'locked', 'kept.txt'), '');
    writeFileSync(join(dir, 'nosearch', 'inside.txt'), '');
    for (const name of ['', 'ro.txt', 'locked', 'locked/kept.txt', 'nosearch', 'nosearch/inside.txt', 'movable', 'writable']) {
      chownSync(join(dir, name), 1000, 1000);
    }
    for (const [name, mode] of [['ro.txt', 0o444], ['locked', 0o555], ['nosearch', 0o644], ['movable', 0o555]]) {
      chmodSync(join(dir, name), mode);
    }
  }

  it('a portable module\'s preopens are checked as Linux checks the ordinary owner, though the host runs as root; --as-root is not', {
    skip: process.geteuid?.() !== 0 && 'the host checks itself unless it runs as root',
  }, async () => {
    chmodSync(host, 0o755); // the native run gives up root, then works in there
    const src = join(programs, 'preopen_permissions.c');
    for (const asRoot of [false, true]) {
      const name = `preopen_permissions${asRoot ? '_root' : ''}`;
      const wasm = join(out, `${name}.wasm`);
      const native = join(out, `${name}.native`);
      const cc = await exec(spindle, ['cc', '-O2', '--host=wasi', ...(asRoot ? ['--as-root'] : []), src, '-o', wasm]);
      assert.equal(cc.code, 0, cc.stderr);
      const nat = await exec('clang-22', ['-O2', ...(asRoot ? ['-DAS_ROOT'] : []), src, '-o', native]);
      assert.equal(nat.code, 0, nat.stderr);
      permissionTree(join(host, `${name}-native`));
      permissionTree(join(host, name));
      const expected = await exec(native, [join(host, `${name}-native`)]);
      assert.equal(expected.code, 0, expected.stderr);
      assert.match(expected.stdout, asRoot ? /0444 file, O_WRONLY\) +ok/ : /0444 file, O_WRONLY\) +-1 EACCES/);
      const r = await exec(spindle, ['run', `--mount=/m=${join(host, name)}`, wasm, '/m']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, expected.stdout, asRoot ? '--as-root' : 'the ordinary user');
    }
  });

  it('the host API takes mounts: [{ path, hostDir }]', async () => {
    const dir = join(host, 'api');
    mkdirSync(dir);
    writeFileSync(join(dir, 'in.txt'), 'from the host\n');
    const src = join(out, 'api.c');
    writeFileSync(src, `#include <stdio.h>
int main(void) {
  char line[64] = "";
  FILE *in = fopen("/srv/data/in.txt", "r");
  if (!in || !fgets(line, sizeof line, in)) return 1;
  fclose(in);
  FILE *o = fopen("/srv/data/out.txt", "w");
  fprintf(o, "got: %s", line);
  return fclose(o) != 0;
}
`);
    const r = await exec(spindle, ['cc', '-O2', src, '-o', join(out, 'api.wasm')]);
    assert.equal(r.code, 0, r.stderr);
    const program = await compile(readFileSync(join(out, 'api.wasm')));
    const result = await runProgram(program, { mounts: [{ path: '/srv/data', hostDir: dir }] });
    assert.equal(result.exitCode, 0, result.trap);
    assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), 'got: from the host\n');
    // the same through I/O workers and mailboxes (host/mount/mailbox.js), the browsers' protocol
    writeFileSync(join(dir, 'in.txt'), 'via I/O workers\n');
    const viaWorkers = await runProgram(program, { mounts: [{ path: '/srv/data', hostDir: dir, ioWorkers: 2 }] });
    assert.equal(viaWorkers.exitCode, 0, viaWorkers.trap);
    assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), 'got: via I/O workers\n');
    await assert.rejects(runProgram(program, { mounts: [{ path: 'rel', hostDir: dir }] }), /absolute/);
    await assert.rejects(runProgram(program, { mounts: [{ path: '/x', hostDir: join(dir, 'nope') }] }), /does not exist/);
  });

  it('a program\'s mount fds are closed once, by dispose(), never a number the process gave out again', async () => {
    const compiled = await compile(readFileSync(await build('leaves_fds')));
    const dir = join(host, 'leaves');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'in.txt'), 'kept\n');
    const fdsInto = (path) => readdirSync('/proc/self/fd').filter((fd) => {
      try { return readlinkSync(`/proc/self/fd/${fd}`).startsWith(realpathSync(path)); } catch { return false; }
    });
    for (const ioWorkers of [0, 1]) {
      const program = await createProgram(compiled, { mounts: [{ path: '/m', hostDir: dir, ioWorkers }] });
      program.start();
      assert.equal((await program.exited).exitCode, 0);
      // every thread has exited: the mount's fds are still open (Node did not close them with
      // its workers), and the lowest free numbers now go to fds of our own
      assert.ok(fdsInto(dir).length > 0, `ioWorkers ${ioWorkers}: the mount's fds were closed with its workers`);
      const ours = Array.from({ length: 32 }, () => openSync('/dev/null', 'r'));
      program.dispose();
      for (let waited = 0; fdsInto(dir).length && waited < 10000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(fdsInto(dir), [], `ioWorkers ${ioWorkers}: dispose() left the mount's fds open`);
      for (const fd of ours) assert.equal(readlinkSync(`/proc/self/fd/${fd}`), '/dev/null', `ioWorkers ${ioWorkers}: fd ${fd} was closed by dispose()`);
      ours.forEach((fd) => closeSync(fd));
    }
  });

  it('an I/O worker that dies (ioWorkers) gives EIO and a message, never a hang', async () => {
    const wasm = await build('ioworker_dies');
    const dir = join(host, 'dies');
    mkdirSync(dir);
    writeFileSync(join(dir, 'big'), Buffer.alloc(8 << 20, 7));
    const program = await compile(readFileSync(wasm));
    let workers = null;
    const messages = [];
    const consoleError = console.error;
    console.error = (...args) => messages.push(args.join(' '));
    // (in Node the program writes its stdout to this fd itself)
    const outFile = join(dir, 'stdout');
    const outFd = openSync(outFile, 'w');
    // once the program is reading through I/O worker 0, kill that worker mid-stream
    const poll = setInterval(() => {
      if (!workers || !readFileSync(outFile, 'utf8').includes('reading')) return;
      clearInterval(poll);
      setTimeout(() => workers[0].terminate(), 50);
    }, 20);
    let result;
    try {
      result = await runProgram(program, {
        args: ['ioworker_dies', '/m/big'],
        stdout: outFd,
        mounts: [{ path: '/m', hostDir: dir, ioWorkers: 1, onIoWorkers: (ws) => { workers = ws; } }],
      });
    } finally {
      console.error = consoleError;
      clearInterval(poll);
      closeSync(outFd);
    }
    const stdout = readFileSync(outFile, 'utf8');
    assert.equal(result.exitCode, 0, `${result.trap}\n${stdout}\n${messages.join('\n')}`);
    assert.match(stdout, /^read: EIO\nopen after: EIO\nstat after: EIO\nclose: (EIO|ok)\ndone\n$/m, stdout);
    const about = messages.filter((m) => m.includes('I/O worker'));
    assert.equal(about.length, 1, messages.join('\n'));
    assert.match(about[0], /mount \/m: I\/O worker 0 of 1 exited .*EIO/);
  });

  it('mailbox.js: a failed ring answers EIO to queued, served and later requests', async () => {
    const { createMailboxes, failRing, submit } = await import('../host/mount/mailbox.js');
    const { REQ } = await import('../host/abi/mount-request.js');
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const view = new DataView(memory.buffer);
    const mem = new Int32Array(memory.buffer);
    const mailboxes = createMailboxes(2);
    const ring1 = new Int32Array(mailboxes.sab, 4096 * 4, 4096);
    const status = new Int32Array(mailboxes.status);
    const answered = (r) => [Atomics.load(mem, (r + REQ.STATE) >>> 2), view.getBigInt64(r + REQ.RESULT, true)];
    // two requests queued for worker 1, a third being served by it
    ring1[0] = 1024;
    ring1[1] = 2048;
    status[2 + 1] = 4096;
    assert.equal(failRing(mailboxes, 1, memory), true);
    assert.equal(failRing(mailboxes, 1, memory), false);
    for (const r of [1024, 2048, 4096]) assert.deepEqual(answered(r), [1, -5n], `request ${r}`);
    assert.deepEqual([...ring1.subarray(0, 4)], [0, 0, 0, 0]);
    // a later submit to it returns at once with EIO; worker 0's ring is untouched
    submit(mailboxes, 1, memory, 8192);
    assert.deepEqual(answered(8192), [1, -5n]);
    assert.equal(status[0], 0);
  });

  it('spindle run --mount gives clear errors', async () => {
    const dir = join(host, 'cli');
    mkdirSync(dir);
    writeFileSync(join(dir, 'file'), '');
    const wasm = join(out, 'api.wasm');
    const cases = [
      [[`--mount=/data=${join(dir, 'missing')}`], /does not exist/],
      [[`--mount=/data=${join(dir, 'file')}`], /is not a directory/],
      [[`--mount=data=${dir}`], /must be an absolute path/],
      [[`--mount=/=${dir}`], /cannot mount over \//],
      [[`--mount=/a=${dir}`, `--mount=/a/=${dir}`], /mounted twice/],
      [['--mount=/a'], /expected \/PATH=HOSTDIR/],
      [['--mount=/a=opfs'], /--browser/],
    ];
    for (const [args, pattern] of cases) {
      const r = await exec(spindle, ['run', ...args, wasm]);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, pattern, args.join(' '));
    }
  });

  it('the conformance programs give Linux\'s output on a host-directory mount', async () => {
    const r = await exec(join(root, 'tests', 'fs', 'run-conformance.sh'), ['--mount'], { timeoutMs: 600000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /on a host-directory mount, identical to Linux/);
  });
});
