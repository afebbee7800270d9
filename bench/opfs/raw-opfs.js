// Raw OPFS ceilings: what FileSystemSyncAccessHandle does in this browser with no Spindle in
// between, measured in dedicated workers of a cross-origin isolated page (the worker is
// bench/opfs/raw-opfs-worker.js). Spindle's OPFS mount is judged against these numbers.
//
//   node bench/opfs/raw-opfs.js [--runs=5] [--mib=64] [--probe]    prints RESULT lines (JSON)
//
// From other code (cli/bench/bench.js):
//   import { rawOpfsBench } from '../bench/opfs/raw-opfs.js';
//   const { results, runs, facts } = await rawOpfsBench({ runs: 5 });        // own browser
//   await measureRawOpfs(page, { mib: 64 })   // a Playwright page already on an isolated origin
//                                              // that serves /bench/opfs/ (cli/browser/isolated-server.js)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { playwrightLaunch } from '../../cli/browser/chromium.js';
import { serveIsolated } from '../../cli/browser/isolated-server.js';
import { median } from '../report/stats.js';

const MiB = 1 << 20;

// Runs inside the page: starts `n` raw workers and gives back a function to call them.
async function pageSide(page) {
  await page.evaluate(async () => {
    if (window.rawOpfs) return;
    let next = 1;
    const pending = new Map();
    const start = () => new Promise((resolve) => {
      const w = new Worker('bench/opfs/raw-opfs-worker.js', { type: 'module' });
      w.onmessage = (e) => {
        if (e.data.ready) return resolve(w);
        const p = pending.get(e.data.id);
        pending.delete(e.data.id);
        if (e.data.error) p.reject(new Error(e.data.error)); else p.resolve(e.data.result);
      };
    });
    const workers = [await start(), await start()];
    window.rawOpfs = (worker, op, args) => new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      workers[worker].postMessage({ id, op, args });
    });
  });
  return (worker, op, args) => page.evaluate(([w, o, a]) => window.rawOpfs(w, o, a), [worker, op, args]);
}

/** The browser's OPFS facts (what exists, how it behaves) and small-operation costs (us). */
export async function probeOpfs(page) {
  const call = await pageSide(page);
  return { facts: await call(0, 'probe'), costsUs: await call(0, 'costs', { reps: 200 }) };
}

/**
 * One run of every ceiling case. Returns flat numbers (MiB/s, files/s):
 * seq_write_4k, seq_read_4k, seq_write_1m, seq_read_1m (64 MiB by default; the file is read 4 times
 * over, as one pass at page-cache speed takes only ~4 ms), small_files
 * (create + 1 KiB write + close), read_1thread (one worker, one file), read_2threads (two workers,
 * two files, aggregate; each reads its 64 MiB file 16 times: page-cache speed) and
 * read_2threads_speedup.
 */
export async function measureRawOpfs(page, { mib = 64, smallFiles = 1000 } = {}) {
  const call = await pageSide(page);
  const r = {};
  const s4 = await call(0, 'sequential', { mib, chunk: 4096 });
  r.seq_write_4k = s4.writeMiBps; r.seq_read_4k = s4.readMiBps;
  const s1 = await call(0, 'sequential', { mib, chunk: MiB });
  r.seq_write_1m = s1.writeMiBps; r.seq_read_1m = s1.readMiBps;
  r.small_files = (await call(0, 'smallFiles', { count: smallFiles, size: 1024 })).filesPerSecond;
  await call(0, 'prepare', { name: 'par-a.bin', mib });
  await call(1, 'prepare', { name: 'par-b.bin', mib });
  // enough passes over the file that one reader takes a measurable time (page-cache speed)
  const passes = Math.max(1, Math.round(1024 / mib));
  const one = await call(0, 'read', { name: 'par-a.bin', chunk: MiB, passes });
  r.read_1thread = (one.bytes / MiB) / (one.ms / 1000);
  const startAt = await page.evaluate(() => performance.timeOrigin + performance.now() + 50);
  const [a, b] = await Promise.all([
    call(0, 'read', { name: 'par-a.bin', chunk: MiB, startAt, passes }),
    call(1, 'read', { name: 'par-b.bin', chunk: MiB, startAt, passes }),
  ]);
  const span = Math.max(a.end, b.end) - Math.min(a.start, b.start);
  r.read_2threads = ((a.bytes + b.bytes) / MiB) / (span / 1000);
  r.read_2threads_speedup = r.read_2threads / r.read_1thread;
  await call(0, 'clean');
  return r;
}

/** Opens its own headless Chromium + server; `runs` runs; medians, every run and the facts. */
export async function rawOpfsBench({ runs = 5, mib = 64, probe = true, incognito = false } = {}) {
  const server = await serveIsolated();
  // A persistent profile on disk, as `spindle run --browser` has: a Playwright `launch()` context
  // is off the record, where OPFS lives in memory behind an IPC per call (100x slower, see
  // docs/OPFS.md), which is not what a user's browser does. incognito: true measures that one.
  const profile = mkdtempSync(join(tmpdir(), 'spindle-opfs-bench-'));
  const browser = incognito ? await chromium.launch(playwrightLaunch)
    : await chromium.launchPersistentContext(profile, playwrightLaunch);
  try {
    const page = incognito ? await browser.newPage() : (browser.pages()[0] ?? await browser.newPage());
    await page.goto(`${server.url}/`);
    const facts = probe ? await probeOpfs(page) : null;
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await measureRawOpfs(page, { mib }));
    const results = {};
    for (const k of Object.keys(all[0])) results[k] = median(all.map((x) => x[k]));
    return { results, runs: all, facts };
  } finally {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const a = process.argv.find((x) => x.startsWith(`--${name}=`));
    return a ? Number(a.split('=')[1]) : dflt;
  };
  const { results, runs, facts } = await rawOpfsBench({ runs: arg('runs', 5), mib: arg('mib', 64),
    probe: process.argv.includes('--probe'), incognito: process.argv.includes('--incognito') });
  if (facts) console.log(`FACTS ${JSON.stringify(facts)}`);
  for (const run of runs) console.log(`RUN ${JSON.stringify(run)}`);
  const round = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  console.log(`RESULT ${JSON.stringify({ experiment: 'opfs-raw', unit: 'MiB/s (small_files: files/s)', ...round })}`);
}
