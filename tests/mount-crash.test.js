// What write() returned for is in the host file however the program ends (docs/MOUNTS.md,
// "Durability"): tests/mount/programs/crash_writer.c writes 4 KiB records to a host-directory
// mount, then is read from outside while it runs, or ends by a signal (SIGINT, SIGTERM, SIGHUP,
// SIGKILL), abort(), a trap or _exit from a thread. Then a full disk: fill_disk.c on a mount of a
// small tmpfs (mounted here, as root). The same programs built for Linux give the answers each
// case must match.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'mount-crash');
const source = join(root, 'tests', 'mount', 'programs', 'crash_writer.c');
const RECORD = 4096;
let host;
let wasm;
let native;

before(async () => {
  mkdirSync(out, { recursive: true });
  host = mkdtempSync(join(tmpdir(), 'spindle-crash-'));
  wasm = join(out, 'crash_writer.wasm');
  native = join(out, 'crash_writer.native');
  const [w, n] = await Promise.all([
    exec(spindle, ['cc', '-O2', source, '-o', wasm]),
    exec('clang-22', ['-O2', '-pthread', source, '-o', native]),
  ]);
  assert.equal(w.code, 0, w.stderr);
  assert.equal(n.code, 0, n.stderr);
});
after(() => rmSync(host, { recursive: true, force: true }));

// Runs the program (`native` or Spindle on a mount of `dir` at /d) until it says "written N",
// then calls `then(child, file)`; resolves with how it ended and the file's bytes afterwards.
function runWriter(side, dir, args, then) {
  const file = join(dir, args[1]);
  const [cmd, argv] = side === 'native'
    ? [native, [args[0], file, ...args.slice(2)]]
    : [spindle, ['run', `--mount=/d=${dir}`, wasm, args[0], `/d/${args[1]}`, ...args.slice(2)]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let seenWhileRunning = null;
    child.stdout.on('data', (c) => {
      stdout += c;
      if (seenWhileRunning === null && /written \d+/.test(stdout)) {
        seenWhileRunning = statSync(file).size;
        then?.(child);
      }
    });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, seenWhileRunning, bytes: readFileSync(file) }));
  });
}

// every record whole: 4,095 copies of its letter and a newline
function checkRecords(bytes, records) {
  assert.equal(bytes.length, records * RECORD);
  for (let i = 0; i < records; i++) {
    const rec = bytes.subarray(i * RECORD, (i + 1) * RECORD);
    const letter = 97 + (i % 26);
    assert.ok(rec.subarray(0, RECORD - 1).every((b) => b === letter) && rec[RECORD - 1] === 10, `record ${i}`);
  }
}

// One row of the table: the same run natively and on a mount; both keep every record.
async function row(name, args, then, records = Number(args[2])) {
  const results = {};
  for (const side of ['native', 'spindle']) {
    const dir = join(host, `${name}-${side}`);
    mkdirSync(dir);
    results[side] = await runWriter(side, dir, args, then);
    const r = results[side];
    assert.equal(r.seenWhileRunning, records * RECORD, `${side}: size seen by another process while it runs\n${r.stderr}`);
    checkRecords(r.bytes, records);
  }
  return results;
}

const kill = (signal) => (child) => child.kill(signal);

describe('a mount keeps what write() returned for (host directory, Node)', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL']) {
    it(`3 records, then ${signal}`, async () => {
      const { native: n, spindle: s } = await row(`signal-${signal}`, ['wait', 'log', '3'], kill(signal));
      assert.equal(n.signal, signal);
      // (Spindle's CLI ends with the signal's status or by it: either way the process is gone)
      assert.ok(s.signal === signal || s.code === 128 + { SIGINT: 2, SIGTERM: 15, SIGHUP: 1, SIGKILL: 9 }[signal], JSON.stringify(s));
    });
  }

  it('3 records, then abort()', async () => {
    const { spindle: s } = await row('abort', ['abort', 'log', '3']);
    assert.notEqual(s.code, 0);
  });

  it('3 records, then a trap (bad memory access)', async () => {
    const { spindle: s } = await row('trap', ['trap', 'log', '3']);
    assert.notEqual(s.code, 0);
  });

  it('3 records from a second thread, then abort() in it', async () => {
    await row('thread-abort', ['abort', 'log', '3', 'thread']);
  });

  it('3 records from a second thread, then _exit(3) in it', async () => {
    const { native: n, spindle: s } = await row('thread-exit', ['exit', 'log', '3', 'thread']);
    assert.equal(n.code, 3);
    assert.equal(s.code, 3);
  });

  it('300 records (1.2 MB), then kill -9', async () => {
    await row('many', ['wait', 'log', '300'], kill('SIGKILL'));
  });

  it('300 records from a second thread, then kill -9', async () => {
    await row('many-thread', ['wait', 'log', '300', 'thread'], kill('SIGKILL'));
  });
});

// A tmpfs of `size` mounted on a fresh directory for fn(dir), unmounted after; null (and the
// reason) where this machine cannot mount one (not root, no mount(8), a container without
// CAP_SYS_ADMIN).
async function onTmpfs(size, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'spindle-full-'));
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (m.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `cannot mount a tmpfs here (${(m.stderr || m.error?.message || '').trim()})` };
  }
  try {
    return { result: await fn(dir) };
  } finally {
    spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a full disk under a mount', () => {
  it('gives ENOSPC from the write that ran out, keeps the earlier bytes, and the run goes on', async (t) => {
    const program = join(root, 'tests', 'mount', 'programs', 'fill_disk.c');
    const fillWasm = join(out, 'fill_disk.wasm');
    const fillNative = join(out, 'fill_disk.native');
    const [w, n] = await Promise.all([
      exec(spindle, ['cc', '-O2', program, '-o', fillWasm]),
      exec('clang-22', ['-O2', program, '-o', fillNative]),
    ]);
    assert.equal(w.code, 0, w.stderr);
    assert.equal(n.code, 0, n.stderr);
    const runs = {};
    for (const side of ['native', 'spindle']) {
      const r = await onTmpfs('256k', (dir) => (side === 'native'
        ? exec(fillNative, [dir])
        : exec(spindle, ['run', `--mount=/d=${dir}`, fillWasm, '/d'])));
      if (r.skipped) return t.skip(r.skipped);
      assert.equal(r.result.code, 0, r.result.stderr);
      runs[side] = r.result.stdout;
    }
    assert.match(runs.native, /then write gave -1, No space left on device/);
    assert.match(runs.native, /records read back intact: (\d+) of \1\n/);
    assert.match(runs.native, /write after space was freed: 1000/);
    assert.equal(runs.spindle, runs.native);
  });
});
