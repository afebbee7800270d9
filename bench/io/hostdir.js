// Spindle on a host-directory mount against node:fs, the ceiling, measured in the same run with
// runs interleaved (node:fs, Spindle, node:fs, Spindle, ...). Spindle runs bench/opfs/opfs_io.c
// (plain POSIX calls) with `spindle run --mount=/data=DIR`; node:fs does the same cases with
// synchronous calls from JavaScript, its two readers on two worker_threads (bench/io/node-reader.js).
//
//   node bench/io/hostdir.js [--runs=5] [--mib=64] [--dir=PARENT]     prints RUN and RESULT lines
//
// From code (cli/bench/bench.js): `await hostdirBench({ runs, mib })` -> { node, spindle, ratios, targets,
// runs, dir } (medians in MiB/s, files/s). DIR is a fresh directory under PARENT (default
// os.tmpdir(), which should be a real disk, not tmpfs: the fsyncs are part of the write cases),
// removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { median } from '../report/stats.js';
import { spindleArgs } from '../spindle-command.js';

const root = join(import.meta.dirname, '..', '..');
const MiB = 1 << 20;

/** Builds bench/opfs/opfs_io.c (spindle cc -O2) into `outDir`; returns the .wasm path. */
export function buildIoBench(outDir = join(root, 'build', 'bench', 'io')) {
  mkdirSync(outDir, { recursive: true });
  const wasm = join(outDir, 'opfs_io.wasm');
  const r = spawnSync(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'bench', 'opfs', 'opfs_io.c'), '-o', wasm],
    { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`spindle cc opfs_io.c failed:\n${r.stderr}`);
  return wasm;
}

function pattern(size, seed) {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7 + (i >> 12) * 13 + seed * 101) & 255;
  return b;
}

// The cases of opfs_io.c's `bench` mode, with node:fs synchronous calls.
function seqWrite(path, mib, chunk) {
  const buf = pattern(chunk, 3);
  const fd = openSync(path, 'w');
  const total = mib * MiB;
  const t = performance.now();
  for (let at = 0; at < total; at += chunk) if (writeSync(fd, buf, 0, chunk) !== chunk) throw new Error(`short write ${path}`);
  fsyncSync(fd);
  closeSync(fd);
  return mib / ((performance.now() - t) / 1000);
}

// Reads the file `passes` times over (one pass from the page cache is only a few ms). Node has no
// lseek: reads at explicit positions (pread), the same system call cost as opfs_io.c's read.
function seqRead(path, chunk, passes) {
  const buf = Buffer.alloc(chunk);
  const fd = openSync(path, 'r');
  let total = 0;
  const t = performance.now();
  for (let p = 0; p < passes; p++) {
    let at = 0; let n;
    while ((n = readSync(fd, buf, 0, chunk, at)) > 0) { at += n; total += n; }
  }
  const mibps = total / MiB / ((performance.now() - t) / 1000);
  closeSync(fd);
  return mibps;
}

function makeFile(path, mib, seed) {
  const buf = pattern(MiB, seed);
  const fd = openSync(path, 'w');
  for (let i = 0; i < mib; i++) writeSync(fd, buf, 0, MiB);
  closeSync(fd);
}

/** `paths.length` worker_threads read their file `passes` times, started together; aggregate MiB/s. */
async function readTogether(paths, passes) {
  const line = new Int32Array(new SharedArrayBuffer(8));
  const workers = paths.map((path) => new Worker(new URL('./node-reader.js', import.meta.url),
    { workerData: { path, passes, chunk: MiB, line } }));
  const done = workers.map((w) => new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  }));
  while (Atomics.load(line, 0) < paths.length) Atomics.wait(line, 0, Atomics.load(line, 0), 1000);
  Atomics.store(line, 1, 1);
  Atomics.notify(line, 1);
  const rs = await Promise.all(done);
  await Promise.all(workers.map((w) => w.terminate()));
  const span = Math.max(...rs.map((r) => r.end)) - Math.min(...rs.map((r) => r.start));
  return rs.reduce((s, r) => s + r.bytes, 0) / MiB / (span / 1000);
}

/** One run of every case with node:fs in `dir`: { seq_write_4k, ..., read_2threads_speedup } (MiB/s, files/s). */
export async function measureNodeFs(dir, { mib = 64 } = {}) {
  const r = {};
  const seq = join(dir, 'seq.bin');
  r.seq_write_4k = seqWrite(seq, mib, 4096);
  r.seq_read_4k = seqRead(seq, 4096, 4);
  r.seq_write_1m = seqWrite(seq, mib, MiB);
  r.seq_read_1m = seqRead(seq, MiB, 4);
  unlinkSync(seq);
  const small = join(dir, 'small');
  mkdirSync(small, { recursive: true });
  const kib = pattern(1024, 4);
  const count = 1000;
  const t = performance.now();
  for (let i = 0; i < count; i++) {
    const fd = openSync(join(small, `f${i}`), 'w');
    writeSync(fd, kib, 0, kib.length);
    closeSync(fd);
  }
  r.small_files = count / ((performance.now() - t) / 1000);
  for (let i = 0; i < count; i++) unlinkSync(join(small, `f${i}`));
  rmdirSync(small);
  const [a, b] = [join(dir, 'par-a.bin'), join(dir, 'par-b.bin')];
  makeFile(a, mib, 1);
  makeFile(b, mib, 2);
  const passes = mib >= 1024 ? 1 : Math.floor(1024 / mib);
  r.read_1thread = await readTogether([a], passes);
  r.read_2threads = await readTogether([a, b], passes);
  r.read_2threads_speedup = r.read_2threads / r.read_1thread;
  unlinkSync(a);
  unlinkSync(b);
  return r;
}

/** One run of opfs_io.c's `bench` mode by `spindle run --mount=/data=DIR`. */
export function measureSpindleHostdir(wasm, dir, { mib = 64 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, spindleArgs('run', `--mount=/data=${dir}`, wasm, 'bench', '/data', String(mib)),
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = ''; let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`opfs_io on a host-directory mount failed (exit ${code}):\n${out.slice(-500)}\n${err.slice(-500)}`));
      else resolve(JSON.parse(line.slice('RESULT '.length)));
    });
  });
}

// The target for the host-directory mount: 1 MiB sequential I/O within 1.5x of node:fs's
// time, i.e. Spindle's throughput at least 1/1.5 of node:fs's.
export const targets = {
  seq_write_1m: { vs: 'node:fs seq_write_1m', timeMax: 1.5 },
  seq_read_1m: { vs: 'node:fs seq_read_1m', timeMax: 1.5 },
};

export async function hostdirBench({ runs = 5, mib = 64, parent = tmpdir(), wasm = null, onRun = () => {} } = {}) {
  wasm ??= buildIoBench();
  const dir = mkdtempSync(join(parent, 'spindle-io-bench-'));
  try {
    mkdirSync(join(dir, 'node'));
    mkdirSync(join(dir, 'spindle'));
    // one untimed pass of each first: page cache, JIT
    await measureNodeFs(join(dir, 'node'), { mib: Math.min(mib, 8) });
    const all = [];
    for (let i = 0; i < runs; i++) {
      onRun(i, 'node:fs');
      const node = await measureNodeFs(join(dir, 'node'), { mib });
      onRun(i, 'spindle');
      const spindle = await measureSpindleHostdir(wasm, join(dir, 'spindle'), { mib });
      all.push({ node, spindle });
    }
    const med = (side) => Object.fromEntries(Object.keys(all[0][side]).map((k) => [k, median(all.map((r) => r[side][k]))]));
    const node = med('node');
    const spindle = med('spindle');
    const ratios = Object.fromEntries(['seq_write_1m', 'seq_read_1m', 'seq_write_4k', 'seq_read_4k', 'small_files']
      .map((k) => [k, spindle[k] / node[k]]));
    ratios.read_2threads_speedup = spindle.read_2threads_speedup;
    return { node, spindle, ratios, targets, runs: all, dir };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const a = process.argv.find((x) => x.startsWith(`--${name}=`));
    return a ? a.slice(name.length + 3) : dflt;
  };
  const r = await hostdirBench({ runs: Number(arg('runs', 5)), mib: Number(arg('mib', 64)), parent: arg('dir', tmpdir()) });
  const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  for (const run of r.runs) console.log(`RUN ${JSON.stringify({ node: round(run.node), spindle: round(run.spindle) })}`);
  console.log(`RESULT ${JSON.stringify({ experiment: 'hostdir-nodefs', dir: r.dir, ...round(r.node) })}`);
  console.log(`RESULT ${JSON.stringify({ experiment: 'hostdir-spindle', ...round(r.spindle) })}`);
  console.log(`RESULT ${JSON.stringify({ experiment: 'hostdir-spindle-vs-nodefs', ...round(r.ratios) })}`);
  for (const [k, t] of Object.entries(targets)) {
    const time = 1 / r.ratios[k];
    console.log(`target ${k}: Spindle takes ${time.toFixed(2)}x ${t.vs}'s time (target <= ${t.timeMax}x): ${time <= t.timeMax ? 'met' : 'NOT met'}`);
  }
}
