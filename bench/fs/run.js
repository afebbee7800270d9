#!/usr/bin/env node
// Filesystem benchmarks: builds bench/fs/*.c natively (run in a tmpfs directory, for
// reference), with `spindle cc --fs=spindle` and with `spindle cc --fs=js`, runs each
// configuration RUNS times (default 5) in Node and, unless --no-browser, in headless Chromium,
// and prints a Markdown table of medians (seconds of the measured part, as each program's
// `RESULT {json}` line reports) with the machine load before and after.
//
//   node bench/fs/run.js [--runs=N] [--no-browser] [--only=REGEX] [--json=FILE]
//   node bench/fs/run.js --table-from=FILE   (the table of an earlier run's JSON)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'bench', 'fs');
const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
const runs = Number(flag('runs') ?? 5);
const browser = !process.argv.includes('--no-browser');
const only = flag('only') ? new RegExp(flag('only')) : null;

const benches = [
  { name: 'stdio_files', where: ['main', 'thread'] },
  { name: 'metadata', where: ['main', 'thread'] },
  { name: 'two_writers', where: [null] },
  { name: 'two_readers', where: [null] },
  { name: 'call_cost', where: ['main', 'thread'] },
];
const hosts = ['native', 'node', ...(browser ? ['chromium'] : [])];
const filesystems = ['spindle', 'js'];

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const uptime = () => sh('uptime', []).trim();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const tableFrom = flag('table-from'); // reprint the table of an earlier run's JSON
let loadBefore; let loadAfter; let rows = []; let hostsRun = hosts; let runsDone = runs;
if (tableFrom) {
  ({ loadBefore, loadAfter, rows } = JSON.parse(readFileSync(tableFrom, 'utf8')));
  hostsRun = [...new Set(rows.map((r) => r.host))];
  runsDone = rows[0].runs;
} else {
  measure();
}

function measure() {
  mkdirSync(out, { recursive: true });
  for (const b of benches) {
    const src = join(root, 'bench', 'fs', `${b.name}.c`);
    sh('gcc', ['-O2', '-pthread', src, '-o', join(out, `${b.name}.native`)]);
    for (const fs of filesystems) sh(spindle, ['cc', `--fs=${fs}`, '-O2', src, '-o', join(out, `${b.name}.${fs}.wasm`)]);
  }

  function runOnce(b, where, host, fs) {
    const args = where ? [where] : [];
    let stdout;
    if (host === 'native') {
      const dir = mkdtempSync('/dev/shm/spindle-bench-'); // tmpfs: no disk in the native numbers
      try {
        stdout = sh(join(out, `${b.name}.native`), args, { env: { ...process.env, TMPDIR: dir } });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      stdout = sh(spindle, ['run', ...(host === 'chromium' ? ['--browser'] : []), join(out, `${b.name}.${fs}.wasm`), ...args]);
    }
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`no RESULT line from ${b.name} ${where} ${host} ${fs}:\n${stdout}`);
    return JSON.parse(line.slice(7));
  }

  loadBefore = uptime();
  for (const b of benches) {
    for (const where of b.where) {
      const label = where ? `${b.name} (${where})` : b.name;
      if (only && !only.test(label)) continue;
      for (const host of hosts) {
        for (const fs of host === 'native' ? ['tmpfs'] : filesystems) {
          const samples = [];
          for (let i = 0; i < runs; i++) samples.push(runOnce(b, where, host, fs));
          const row = {
            bench: label, host, fs, runs,
            seconds: median(samples.map((s) => s.seconds)),
            mb_per_s: samples[0].mb_per_s !== undefined ? median(samples.map((s) => s.mb_per_s)) : undefined,
            ops_per_s: samples[0].ops_per_s !== undefined ? median(samples.map((s) => s.ops_per_s)) : undefined,
            all_seconds: samples.map((s) => s.seconds),
          };
          rows.push(row);
          process.stderr.write(`${label} ${host} ${fs}: median ${row.seconds.toFixed(4)} s [${row.all_seconds.map((s) => s.toFixed(3)).join(' ')}]\n`);
        }
      }
    }
  }
  loadAfter = uptime();

}

const find = (bench, host, fs) => rows.find((r) => r.bench === bench && r.host === host && r.fs === fs);
const fmt = (x, digits = 3) => (x === undefined ? '' : x.toFixed(digits));
const lines = [
  `Medians of ${runsDone} runs (fastest run in brackets). Load before: \`${loadBefore}\`; after: \`${loadAfter}\`.`,
  '',
  '| benchmark | host | native tmpfs (s) | Spindle FS (s) | JS FS (s) | JS FS / Spindle FS | Spindle throughput | JS throughput |',
  '|---|---|---|---|---|---|---|---|',
];
for (const label of [...new Set(rows.map((r) => r.bench))]) {
  const native = find(label, 'native', 'tmpfs');
  for (const host of hostsRun.filter((h) => h !== 'native')) {
    const sp = find(label, host, 'spindle'); const js = find(label, host, 'js');
    if (!sp || !js) continue;
    const tput = (r) => (r.mb_per_s !== undefined ? `${fmt(r.mb_per_s, 1)} MB/s` : `${Math.round(r.ops_per_s)} ops/s`);
    const cell = (r) => `${fmt(r.seconds)} [${fmt(Math.min(...r.all_seconds))}]`;
    lines.push(`| ${label} | ${host} | ${native ? cell(native) : ''} | ${cell(sp)} | ${cell(js)} | ${fmt(js.seconds / sp.seconds, 1)}x | ${tput(sp)} | ${tput(js)} |`);
  }
}
for (const name of ['stdio_files', 'metadata']) {
  for (const host of hostsRun.filter((h) => h !== 'native')) {
    const m = find(`${name} (main)`, host, 'spindle'); const t = find(`${name} (thread)`, host, 'spindle');
    if (m && t) lines.push('', `Spindle FS ${name}, ${host}: pthread / main = ${fmt(t.seconds / m.seconds, 2)}`);
  }
}
const table = lines.join('\n');
console.log(table);
if (!tableFrom) {
  const jsonPath = flag('json') ?? join(out, 'results.json');
  writeFileSync(jsonPath, JSON.stringify({ loadBefore, loadAfter, runs, rows }, null, 2));
}
