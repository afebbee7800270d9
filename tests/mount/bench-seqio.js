// 1 MiB sequential writes/reads: a host-directory mount (spindle run --mount) vs node:fs on
// the same disk, ROUNDS interleaved runs, medians. Usage: node tests/mount/bench-seqio.js [MIB] [ROUNDS]
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const spindle = join(root, 'bin', 'spindle');
const mib = Number(process.argv[2] ?? 256);
const rounds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'spindle-seqio-'));
const wasm = join(dir, 'seqio.wasm');
execFileSync(spindle, ['cc', '-O2', join(import.meta.dirname, 'programs', 'seqio.c'), '-o', wasm]);

function nodeRound() {
  const buf = Buffer.alloc(1 << 20, 'x');
  const file = join(dir, 'node.bin');
  let t0 = performance.now();
  let fd = openSync(file, 'w');
  for (let i = 0; i < mib; i++) writeSync(fd, buf, 0, buf.length);
  closeSync(fd);
  const w = mib / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  fd = openSync(file, 'r');
  for (let i = 0; i < mib; i++) readSync(fd, buf, 0, buf.length);
  closeSync(fd);
  return { w, r: mib / ((performance.now() - t0) / 1000) };
}

function spindleRound() {
  const out = execFileSync(spindle, ['run', `--mount=/d=${dir}`, wasm, '/d/spindle.bin', String(mib), '2']).toString();
  const last = out.trim().split('\n').pop(); // the second round: warm JIT and page cache
  const [, w, r] = /write (\d+) MiB\/s read (\d+) MiB\/s/.exec(last);
  return { w: Number(w), r: Number(r) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const node = [];
const spin = [];
nodeRound();
for (let i = 0; i < rounds; i++) {
  node.push(nodeRound());
  spin.push(spindleRound());
}
const fmt = (xs, k) => `${median(xs.map((x) => x[k])).toFixed(0)} MiB/s`;
console.log(`${mib} MiB in 1 MiB calls, median of ${rounds}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`write: node:fs ${fmt(node, 'w')}, spindle mount ${fmt(spin, 'w')} (${(median(node.map((x) => x.w)) / median(spin.map((x) => x.w))).toFixed(2)}x node's time)`);
console.log(`read:  node:fs ${fmt(node, 'r')}, spindle mount ${fmt(spin, 'r')} (${(median(node.map((x) => x.r)) / median(spin.map((x) => x.r))).toFixed(2)}x node's time)`);
rmSync(dir, { recursive: true, force: true });
