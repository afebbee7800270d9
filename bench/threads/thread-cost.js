// Measures what a thread costs in `spindle run` (Node): the time to start N threads that then
// idle, and the process's resident memory with them, against the same program with none.
// usage: node bench/threads/thread-cost.js [N=100] [repeats=3]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeMadeFor } from '../spindle-command.js';

const root = join(import.meta.dirname, '..', '..');
const spindle = join(root, 'bin', 'spindle');
const n = Number(process.argv[2] ?? 100);
const repeats = Number(process.argv[3] ?? 3);
const wasm = join(root, 'build', 'bench', 'threads', 'idle_threads.wasm');
mkdirSync(join(wasm, '..'), { recursive: true });
const cc = spawnSync(spindle, ['cc', '-O2', join(import.meta.dirname, 'idle_threads.c'), '-o', wasm], { stdio: 'inherit' });
if (cc.status !== 0) process.exit(1);
await codeMadeFor(wasm); // (its TurboFan code, which spindle cc has made in the background)

const residentKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

/** Runs the program with `threads` idle threads: { ms, rssKiB } once they all started. */
function measure(threads) {
  return new Promise((resolve, reject) => {
    const child = spawn(spindle, ['run', wasm, String(threads)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (c) => {
      text += c;
      if (!text.includes('holding')) return;
      const rssKiB = residentKiB(child.pid);
      child.stdin.end();
      child.on('close', (code) => (code === 0 ? resolve({ ms: Number(/in ([\d.]+) ms/.exec(text)[1]), rssKiB })
        : reject(new Error(`exit ${code}`))));
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = []; const loaded = [];
for (let r = 0; r < repeats; r++) {
  base.push(await measure(0));
  loaded.push(await measure(n));
}
const perThreadMiB = (median(loaded.map((m) => m.rssKiB)) - median(base.map((m) => m.rssKiB))) / n / 1024;
process.stdout.write(`${n} idle threads: start ${median(loaded.map((m) => m.ms)).toFixed(0)} ms ` +
  `(runs: ${loaded.map((m) => m.ms.toFixed(0)).join(', ')}), resident memory ${perThreadMiB.toFixed(2)} MiB per thread ` +
  `(process: ${(median(base.map((m) => m.rssKiB)) / 1024).toFixed(0)} MiB with none, ` +
  `${(median(loaded.map((m) => m.rssKiB)) / 1024).toFixed(0)} MiB with ${n})\n`);
