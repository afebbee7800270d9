// The host-directory mount's native addon (host/mount/hostdir/addon/mount_at.c, docs/MOUNTS.md "The
// native addon"): it loads on every Node version setup installs, in worker threads too; its
// calls never follow a symlink nor take a path that is not plain; its listing matches node:fs;
// and the mount suites with escape tests pass on the node:fs path too (SPINDLE_MOUNT_ADDON=0).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync,
  statSync, symlinkSync, writeFileSync, writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DT, ERRNO as E, O } from '../host/abi/linux.js';
import { listedEntries, mountAddon } from '../host/platform/mount-addon.js';

const root = join(import.meta.dirname, '..');
const addon = process.platform === 'linux' ? mountAddon() : null;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'spindle-mount-addon-'));
  mkdirSync(join(dir, 'a/b'), { recursive: true });
  writeFileSync(join(dir, 'a/b/file'), 'twelve bytes');
  symlinkSync('b', join(dir, 'a/inside')); // a relative link inside
  symlinkSync('/etc', join(dir, 'abs'));
  symlinkSync(dir, join(dir, 'to-root'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

// a stat through the addon: { result, size, mode } (the protocol's layout: size @24, mode @8)
const memory = new DataView(new SharedArrayBuffer(4096));
// the addon's calls on a whole host path: all of it as the root's bytes, no path from memory
const statPath = (path, follow, view, at) => addon.statIn(Buffer.from(path), view, 0, 0, follow, at);
const openPath = (path, flags, mode, view, at) => addon.openIn(Buffer.from(path), view, 0, 0, flags, mode, at);
function stat(path, follow = false) {
  const result = statPath(path, follow, memory, 64);
  return { result, size: Number(memory.getBigInt64(64 + 24, true)), mode: memory.getUint32(64 + 8, true) };
}

describe('host-directory mount addon', { skip: !addon && 'not built or not Linux (the node:fs path is used)' }, () => {
  it('loads on each Node version here, in the main thread and in worker threads', () => {
    const script = `import { Worker } from 'node:worker_threads';
      import { mountAddon } from ${JSON.stringify(join(root, 'host/platform/mount-addon.js'))};
      const here = (where) => console.log(where, typeof mountAddon()?.statIn);
      here('main');
      const w = new Worker(${JSON.stringify(`import('${join(root, 'host/platform/mount-addon.js')}').then((m) => console.log('worker', typeof m.mountAddon()?.statIn))`)}, { eval: true });
      w.on('exit', () => here('after'));`;
    const nodes = [process.execPath, ...readdirSync(join(root, '.toolchain')).filter((d) => d.startsWith('node-'))
      .map((d) => join(root, '.toolchain', d, 'bin/node')).filter(existsSync)];
    for (const node of nodes) {
      const r = spawnSync(node, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(r.stdout, 'main function\nworker function\nafter function\n', `${node}: ${r.stderr}`);
    }
  });

  it('stats and opens plain paths, writing the protocol\'s stat', () => {
    const s = stat(join(dir, 'a/b/file'));
    assert.equal(s.result, 0);
    assert.equal(s.size, 12);
    assert.equal(s.mode, lstatSync(join(dir, 'a/b/file')).mode);
    const fd = openPath(join(dir, 'a/b/new'), O.CREAT | O.RDWR, 0o600, memory, 128);
    assert.ok(fd >= 0, `open: ${fd}`);
    assert.equal(memory.getBigInt64(128 + 24, true), 0n);
    assert.equal(addon.close(fd), 0);
    assert.equal(addon.close(fd), -E.EBADF);
    const file = openPath(join(dir, 'a/b/file'), O.RDONLY, 0, memory, 128);
    memory.setBigInt64(512 + 24, -1n, true);
    assert.equal(addon.fstat(file, memory, 512), 0);
    assert.deepEqual(Buffer.from(memory.buffer, 512, 64), Buffer.from(memory.buffer, 128, 64), 'fstat writes what open wrote');
    assert.equal(memory.getBigInt64(512 + 24, true), 12n);
    assert.equal(addon.pread(file, memory, 1000, 100, 7), 5);
    assert.equal(Buffer.from(memory.buffer, 1000, 5).toString(), 'bytes');
    assert.throws(() => addon.pread(file, memory, 4000, 100, 0), TypeError); // past the view's end
    assert.throws(() => addon.pread(file, memory, 0, 1, -1), TypeError);
    assert.equal(addon.pwrite(file, memory, 1000, 5, 0), -E.EBADF, 'pwrite on a read-only fd');
    addon.close(file);
    // pwrite: straight from the view, at the offset; bad spans are the caller's bug (TypeError)
    const rw = openPath(join(dir, 'a/b/new'), O.RDWR, 0, memory, 128);
    Buffer.from(memory.buffer, 2000, 6).write('pwrite');
    assert.equal(addon.pwrite(rw, memory, 2000, 6, 3), 6);
    assert.deepEqual(readFileSync(join(dir, 'a/b/new')), Buffer.from('\0\0\0pwrite'));
    assert.throws(() => addon.pwrite(rw, memory, 4090, 100, 0), TypeError);
    assert.throws(() => addon.pwrite(rw, memory, 0, 1, -1), TypeError);
    addon.close(rw);
    assert.equal(stat(join(dir, 'a/b/missing')).result, -E.ENOENT);
    assert.equal(stat(join(dir, 'a/b/file/x')).result, -E.ENOTDIR);
  });

  it('never follows a symlink, in any component, the root\'s own path included', () => {
    assert.equal(stat(join(dir, 'a/inside/file')).result, -E.ELOOP);
    assert.equal(stat(join(dir, 'abs/passwd')).result, -E.ELOOP);
    assert.equal(stat(join(dir, 'to-root/a/b/file')).result, -E.ELOOP);
    assert.equal(stat('/proc/self/root/etc/passwd').result, -E.ELOOP); // a magic link
    // a final symlink is the link itself, unless the caller follows it (then ELOOP: resolve it)
    const link = stat(join(dir, 'abs'));
    assert.equal(link.result, 0);
    assert.equal(link.mode & S_IFMT, S_IFLNK);
    assert.equal(stat(join(dir, 'abs'), true).result, -E.ELOOP);
    assert.equal(openPath(join(dir, 'abs'), O.RDONLY, 0, memory, 0), -E.ELOOP);
    assert.equal(openPath(join(dir, 'a/inside'), O.RDONLY | O.DIRECTORY, 0, memory, 0) < 0, true);
  });

  it('changes names in a path\'s parent, never through a symlink, never following a final one', () => {
    const at = (p) => join(dir, p);
    assert.equal(addon.mkdir(at('a/b/made'), 0o750), 0);
    assert.equal(lstatSync(at('a/b/made')).mode & 0o777, 0o750 & ~process.umask());
    assert.equal(addon.mkdir(at('a/b/made'), 0o755), -E.EEXIST);
    assert.equal(addon.rename(at('a/b/made'), at('a/moved')), 0);
    assert.ok(lstatSync(at('a/moved')).isDirectory());
    assert.equal(addon.unlink(at('a/moved'), false), -E.EISDIR);
    assert.equal(addon.unlink(at('a/moved'), true), 0);
    writeFileSync(at('a/b/f1'), 'x');
    assert.equal(addon.link(at('a/b/f1'), at('a/b/f2')), 0);
    assert.equal(lstatSync(at('a/b/f2')).nlink, 2);
    assert.equal(addon.unlink(at('a/b/f1'), false), 0);
    assert.equal(addon.unlink(at('a/b/f2'), false), 0);
    assert.equal(addon.unlink(at('a/b/f2'), false), -E.ENOENT);
    // a symlink on the way: ELOOP, or ENOTDIR where it is the parent itself (both send the call
    // the careful way, which decides); a final one is the link itself
    const refused = (r) => [-E.ELOOP, -E.ENOTDIR].includes(r);
    assert.equal(addon.mkdir(at('a/inside/x'), 0o755), -E.ENOTDIR);
    assert.equal(addon.mkdir(at('a/inside/b/x'), 0o755), -E.ELOOP);
    assert.ok(refused(addon.unlink(at('abs/passwd'), false)));
    assert.ok(refused(addon.rename(at('a/b/file'), at('to-root/a/b/x'))));
    assert.ok(refused(addon.link(at('abs/passwd'), at('a/b/x'))));
    assert.ok(existsSync(at('a/b/file')));
    symlinkSync('/etc/passwd', at('a/b/out'));
    assert.equal(addon.link(at('a/b/out'), at('a/b/out2')), 0);
    assert.equal(lstatSync(at('a/b/out2')).isSymbolicLink(), true, 'linked the symlink, not /etc/passwd');
    assert.equal(addon.rename(at('a/b/out2'), at('a/b/out3')), 0);
    assert.equal(lstatSync(at('a/b/out3')).isSymbolicLink(), true);
    assert.equal(addon.unlink(at('a/b/out3'), false), 0);
    assert.equal(addon.unlink(at('a/b/out'), false), 0);
    assert.ok(existsSync('/etc/passwd'));
    // only plain absolute paths, and never the root's own parent
    for (const p of ['a/b/x', `${dir}/a/../x`, `${dir}/a/b/`, '/', '/x', '']) assert.equal(addon.unlink(p, false), -E.EINVAL, p);
    assert.throws(() => addon.unlink(at('a/b/x')), TypeError);
    assert.throws(() => addon.mkdir(at('a/b/x'), 'rwx'), TypeError);
    assert.throws(() => addon.rename(at('a/b/x')), TypeError);
  });

  it('takes only absolute paths of plain components', () => {
    for (const path of ['a/b/file', `${dir}/a/../a/b/file`, `${dir}/./a/b/file`, `${dir}//a/b/file`, `${dir}/a/b/file/`,
      `${dir}/a/b/file\0x`, '']) {
      assert.equal(stat(path).result, -E.EINVAL, JSON.stringify(path));
    }
    assert.equal(stat(`/${'x'.repeat(5000)}`).result, -E.ENAMETOOLONG);
  });

  it('refuses bad arguments with a TypeError, never writing outside the view', () => {
    assert.throws(() => statPath(join(dir, 'a/b/file'), false, memory, 4096 - 63), TypeError);
    assert.throws(() => statPath(join(dir, 'a/b/file'), false, new Uint8Array(64), 0), TypeError);
    assert.throws(() => openPath(join(dir, 'a/b/file'), 'x', 0, memory, 0), TypeError);
    assert.throws(() => addon.list('3'), TypeError);
    assert.throws(() => addon.fstat(0, memory, 4096 - 63), TypeError);
    assert.throws(() => addon.fstat('0', memory, 0), TypeError);
    assert.equal(addon.fstat(-1, memory, 0), -E.EBADF);
    assert.equal(addon.list(-1), -E.EBADF);
  });

  it('stats and opens a path read from the program\'s memory under the root (statIn, openIn)', () => {
    const rootBytes = Buffer.from(dir);
    const put = (at, text) => Buffer.from(memory.buffer, at, text.length).set(Buffer.from(text, 'latin1'));
    put(3000, 'a/b/file');
    assert.equal(addon.statIn(rootBytes, memory, 3000, 8, false, 64), 0);
    assert.equal(Number(memory.getBigInt64(64 + 24, true)), 12);
    const fd = addon.openIn(rootBytes, memory, 3000, 8, O.RDONLY, 0, 128);
    assert.ok(fd >= 0, `openIn: ${fd}`);
    assert.deepEqual(Buffer.from(memory.buffer, 128, 64), Buffer.from(memory.buffer, 64, 64), 'openIn writes what statIn wrote');
    addon.close(fd);
    assert.equal(addon.statIn(rootBytes, memory, 3000, 0, false, 64), 0, 'an empty path is the root');
    assert.equal(memory.getUint32(64 + 8, true) & 0o170000, 0o040000);
    // what the careful path must judge: EINVAL (a byte from 0x80, a NUL, "..", an empty name)
    for (const text of ['a/b/fil\xe9', 'a/b\0/file', 'a/../a/b/file', 'a//b/file']) {
      put(3000, text);
      assert.equal(addon.statIn(rootBytes, memory, 3000, text.length, false, 64), -E.EINVAL, JSON.stringify(text));
    }
    put(3000, 'a/inside/file');
    assert.equal(addon.statIn(rootBytes, memory, 3000, 13, false, 64), -E.ELOOP, 'never through a symlink');
    assert.equal(addon.statIn(rootBytes, memory, 4090, 100, false, 64), -E.EFAULT, 'a path past the view');
    assert.equal(addon.statIn(rootBytes, memory, 0, 5000, false, 64), -E.EFAULT);
    assert.equal(addon.statIn(Buffer.alloc(5000, 'x'), memory, 3000, 8, false, 64), -E.ENAMETOOLONG);
    assert.throws(() => addon.statIn(rootBytes, memory, 3000, 8, false, 4096 - 63), TypeError);
    assert.throws(() => addon.openIn(rootBytes, memory, 3000, 8, 'x', 0, 0), TypeError);
  });

  it('keeps a stat\'s directories open only while inotify says they are where the path says (kept_dirs.c)', () => {
    const top = mkdtempSync(join(tmpdir(), 'spindle-kept-dirs-'));
    const mountRoot = join(top, 'root');
    const file = (rel, text) => {
      mkdirSync(join(mountRoot, rel, '..'), { recursive: true });
      writeFileSync(join(mountRoot, rel), text);
    };
    const rootBytes = Buffer.from(mountRoot);
    // the size of root/rel, or -errno
    const sizeOf = (rel) => {
      Buffer.from(memory.buffer, 3000, rel.length).set(Buffer.from(rel));
      const r = addon.statIn(rootBytes, memory, 3000, rel.length, false, 64);
      return r === 0 ? Number(memory.getBigInt64(64 + 24, true)) : r;
    };
    const openFds = () => readdirSync('/proc/self/fd').length;
    try {
      file('d/e/f', 'one');
      addon.dropKeptDirs();
      const before = openFds();
      assert.equal(sizeOf('d/e/f'), 3);
      const kept = openFds();
      assert.ok(kept > before, 'its directories are kept open');
      // a path through a missing directory (a search path probed) leaves the kept ones kept
      assert.deepEqual([sizeOf('d/missing/f'), sizeOf('d/e/f/g'), openFds()], [-E.ENOENT, -E.ENOTDIR, kept]);
      file('d/e/g', 'grown');
      rmSync(join(mountRoot, 'd/e/f'));
      assert.deepEqual([sizeOf('d/e/f'), sizeOf('d/e/g')], [-E.ENOENT, 5], 'files come and go in a kept directory');
      // another directory renamed over it
      rmSync(join(mountRoot, 'd/e/g'));
      mkdirSync(join(top, 'new-e'));
      writeFileSync(join(top, 'new-e/f'), 'second');
      renameSync(join(top, 'new-e'), join(mountRoot, 'd/e'));
      assert.equal(sizeOf('d/e/f'), 6, 'the directory renamed over it');
      // moved outside the mount, and a symlink to it put in its place: never reached
      renameSync(join(mountRoot, 'd'), join(top, 'outside'));
      assert.equal(sizeOf('d/e/f'), -E.ENOENT, 'moved away');
      symlinkSync(join(top, 'outside'), join(mountRoot, 'd'));
      assert.equal(sizeOf('d/e/f'), -E.ELOOP, 'a symlink in its place (the careful path decides)');
      rmSync(join(mountRoot, 'd'));
      // removed and made again while it was kept
      file('d/e/f', 'three');
      assert.equal(sizeOf('d/e/f'), 5);
      rmSync(join(mountRoot, 'd'), { recursive: true });
      file('d/e/f', 'four!!');
      assert.equal(sizeOf('d/e/f'), 6, 'removed and made again');
      // the root's own parent renamed: its path names nothing now, as for a path walk
      renameSync(top, `${top}-moved`);
      try {
        assert.equal(sizeOf('d/e/f'), -E.ENOENT, 'a parent of the root renamed');
      } finally {
        renameSync(`${top}-moved`, top);
      }
      assert.equal(sizeOf('d/e/f'), 6);
      addon.dropKeptDirs();
      assert.equal(openFds(), before, 'dropKeptDirs closes them and the queue of their watches');
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  it('keeps nothing open with SPINDLE_MOUNT_KEPT_DIRS=0', () => {
    const script = `const { mountAddon } = await import(${JSON.stringify(join(root, 'host/platform/mount-addon.js'))});
      const { readdirSync } = await import('node:fs');
      const memory = new DataView(new SharedArrayBuffer(4096));
      Buffer.from(memory.buffer, 0, 10).set(Buffer.from('a/b/file'));
      const before = readdirSync('/proc/self/fd').length;
      const r = mountAddon().statIn(Buffer.from(${JSON.stringify(dir)}), memory, 0, 8, false, 64);
      console.log(r, readdirSync('/proc/self/fd').length - before);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, SPINDLE_MOUNT_KEPT_DIRS: '0' } });
    assert.equal(r.stdout.trim(), '0 0', r.stderr);
  });

  it('lists a directory with each entry\'s lstat, in node:fs\'s order', () => {
    const fd = openPath(dir, O.RDONLY | O.DIRECTORY, 0, memory, 0);
    const entries = listedEntries(addon.list(fd));
    addon.close(fd);
    assert.deepEqual(entries.map((e) => e.name.toString()), readdirSync(dir));
    for (const e of entries) {
      const st = lstatSync(join(dir, e.name.toString()), { bigint: true });
      const wire = new DataView(e.st.buffer, e.st.byteOffset, 64); // (mount_wire.h's layout)
      assert.deepEqual([wire.getBigUint64(0, true), wire.getUint32(8, true), wire.getBigInt64(24, true), wire.getBigInt64(48, true)], [st.ino, Number(st.mode), st.size, st.mtimeNs]);
      assert.equal(e.type, st.isSymbolicLink() ? DT.LNK : st.isDirectory() ? DT.DIR : DT.REG);
    }
  });

  it('seeks a host fd, as stdout that is a regular file needs', () => {
    const fd = openSync(join(dir, 'seek'), 'w+');
    try {
      writeSync(fd, 'twelve bytes');
      assert.deepEqual([addon.lseek(fd, 0, 1), addon.lseek(fd, 3, 0), addon.lseek(fd, -2, 2)], [12, 3, 10]);
      assert.equal(addon.lseek(fd, -1, 0), -E.EINVAL);
      writeSync(fd, 'ES'); // at the offset the addon set
      assert.equal(readFileSync(join(dir, 'seek'), 'utf8'), 'twelve bytES');
    } finally {
      closeSync(fd);
    }
    assert.equal(addon.lseek(-1, 0, 0), -E.EBADF);
    assert.throws(() => addon.lseek(fd, 0), TypeError);
  });

  it('yields the CPU for sched_yield, taking nothing from its caller', () => {
    assert.equal(addon.yield(), undefined);
    assert.equal(addon.yield(-1, 'x', memory), undefined); // arguments are ignored
  });

  it('fileStamps: each file\'s mtime and size as node:fs gives them, NaN where there is none', () => {
    const file = join(dir, 'a/b/file');
    const paths = [file, join(dir, 'a'), join(dir, 'missing'), 7, `${file}\0x`, `/${'x'.repeat(5000)}`];
    const stamps = addon.fileStamps(paths);
    assert.ok(stamps instanceof Float64Array);
    assert.equal(stamps.length, 2 * paths.length);
    for (const [i, path] of [file, join(dir, 'a')].entries()) {
      const st = statSync(path);
      assert.deepEqual([stamps[2 * i], stamps[2 * i + 1]], [st.mtimeMs, st.size], path);
    }
    assert.ok([...stamps.subarray(4)].every(Number.isNaN), 'a missing file, no string, a NUL inside, too long');
    assert.deepEqual(addon.fileStamps([]), new Float64Array(0));
    for (const bad of [undefined, 'x', {}]) assert.throws(() => addon.fileStamps(bad), TypeError);
  });

  it('isatty: false for a file, /dev/null, a closed or bad fd and a value that is no fd', () => {
    const file = openSync(join(dir, 'a/b/file'), 'r');
    const devNull = openSync('/dev/null', 'r');
    try {
      for (const fd of [file, devNull, 999999, -1, 2 ** 31, 'x', undefined, {}]) assert.equal(addon.isatty(fd), false, String(fd));
    } finally {
      closeSync(file);
      closeSync(devNull);
    }
  });

  it('starts a command when the process ends, by Node\'s exit or the addon\'s, detached and holding none of its fds', async () => {
    const addonPath = join(root, 'host', 'platform', 'mount-addon.js');
    const out = join(dir, 'at-exit.txt');
    // the command reports its session (its own) and its open fds (0-2 only, on /dev/null)
    const report = `echo "sid=$(cut -d' ' -f6 /proc/self/stat) self=$$" > ${out}; ls -l /proc/self/fd >> ${out}`;
    for (const how of ['node', 'addon']) {
      rmSync(out, { force: true });
      const script = `import { mountAddon } from ${JSON.stringify(addonPath)};
        const a = mountAddon();
        const bad = [a.startAtExit([]), a.startAtExit(['sh']), a.startAtExit('x'), a.startAtExit(['/bin/sh', 'a\\0b'])];
        if (bad.some((r) => r !== -22)) throw new Error(String(bad));
        if (a.startAtExit(['/bin/sh', '-c', ${JSON.stringify(report)}]) !== 0) throw new Error('not set');
        ${how === 'addon' ? 'a.exit(7);' : 'process.exitCode = 7;'}`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
      assert.equal(r.status, 7, r.stderr);
      for (let waited = 0; !existsSync(out) || !readFileSync(out, 'utf8').includes('fd'); waited += 20) {
        assert.ok(waited < 10000, `${how}: the command did not run`);
        await new Promise((done) => setTimeout(done, 20));
      }
      const text = readFileSync(out, 'utf8');
      const [, sid, self] = /sid=(\d+) self=(\d+)/.exec(text);
      assert.equal(sid, self, `${how}: a session of its own`);
      const fds = [...text.matchAll(/ (\d+) -> (\S+)/g)].filter(([, , target]) => !target.startsWith('/proc/')).map(([, fd, target]) => `${fd} ${target}`);
      assert.deepEqual(fds.filter((f) => !/^(0|1|2) \/dev\/null$/.test(f) && !f.endsWith(out)), [], `${how}: ${fds.join(', ')}`);
    }
  });

  it('a program seeks its stdout file, and gets ESPIPE without the addon (SPINDLE_MOUNT_ADDON=0)', () => {
    const wasm = join(dir, 'stdout_seek.wasm');
    const cc = spawnSync(join(root, 'bin/spindle'), ['cc', '-O2', join(root, 'tests/programs/posix_stdio_stdout_seek.c'), '-o', wasm], { encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    const stdoutWith = (addonSetting) => {
      const out = openSync(join(dir, `stdout-${addonSetting}`), 'w');
      const { NODE_TEST_CONTEXT, ...env } = process.env;
      spawnSync(join(root, 'bin/spindle'), ['run', wasm], { stdio: ['ignore', out, 'pipe'], env: { ...env, SPINDLE_MOUNT_ADDON: addonSetting } });
      closeSync(out);
      return readFileSync(join(dir, `stdout-${addonSetting}`), 'utf8');
    };
    assert.match(stdoutWith('1'), /^01ab456789\nSEEK_CUR after the line 11, SEEK_SET to 2, after the patch 4, SEEK_END 11\n/);
    const without = stdoutWith('0');
    assert.match(without, /^0123456789\nabSEEK_CUR after the line -1, SEEK_SET to -1/);
    assert.match(without, /lseek\(1, -1, SEEK_SET\) +-1 ESPIPE/);
  });

  // (once per scripts/test.sh run: its other Node lanes set SPINDLE_TEST_LANE=extra, for CI's time;
  // node:fs's calls this path makes are the same on every Node the suite runs)
  const extraLane = process.env.SPINDLE_TEST_LANE === 'extra' && 'run in the main lane of scripts/test.sh';
  it('the mount suites with escape tests pass on the node:fs path too (SPINDLE_MOUNT_ADDON=0)', { skip: extraLane }, () => {
    const suites = ['tests/mount.test.js', 'tests/hostile.test.js', 'tests/mount-kept-dirs.test.js'];
    // (without NODE_TEST_CONTEXT, which would make the child report to this runner)
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=tap', ...suites], {
      cwd: root, encoding: 'utf8', env: { ...env, SPINDLE_MOUNT_ADDON: '0', SPINDLE_TEST_BROWSER: '0' },
    });
    assert.equal(r.status, 0, r.stdout.slice(-3000));
    assert.match(r.stdout, /# fail 0/);
  });
});
