#!/usr/bin/env node
// Where creating small files on raw OPFS spends its time, in headless Chromium and Firefox
// (docs/OPFS.md, "Firefox"): `node bench/opfs/create-cost.js [--files=200] [--browsers=chromium,firefox]`
// prints one RESULT line per browser with each step's median and total (bench/opfs/create-cost-worker.js).
// --mode=writable compares a sync access handle with createWritable(), one file after another and
// --concurrency (8) at a time (bench/opfs/create-writable-worker.js); --runs=N repeats the
// browsers in turn (a fresh profile each run) and ends with each browser's medians over the runs;
// --limit-s (300) bounds each run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveIsolated } from '../../cli/browser/isolated-server.js';
import { driverPost, driverRoutes } from '../../tests/lib/page-driver.js';
import { openProfile } from '../../tests/opfs/profile.js';
import { median } from '../report/stats.js';

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
function usageError(message) {
  console.error(`create-cost: ${message}`);
  process.exit(2);
}
/** A --name=N that must be a positive whole number (0 files at a time would never end). */
function count(name, dflt) {
  const n = Number(arg(name, dflt));
  if (!Number.isInteger(n) || n < 1) usageError(`--${name} must be a positive whole number, not ${arg(name)}`);
  return n;
}
const files = count('files', 200);
const browsers = arg('browsers', 'chromium,firefox').split(',');
const runs = count('runs', 1);
const concurrency = count('concurrency', 8); // --mode=writable: files at a time
const limitMs = count('limit-s', 300) * 1000; // a run with no answer by then is an error
const workers = { steps: 'bench/opfs/create-cost-worker.js', writable: 'bench/opfs/create-writable-worker.js' };
const worker = workers[arg('mode', 'steps')];
if (!worker) usageError(`--mode must be one of: ${Object.keys(workers).join(', ')}`);
const results = {}; // browser -> the runs' results

const server = await serveIsolated(driverRoutes, { onPost: driverPost }); // Firefox's page is driven (tests/lib/page-driver.js)
try {
  for (let run = 0; run < runs; run++) for (const browser of browsers) {
    const profile = mkdtempSync(join(tmpdir(), 'spindle-create-cost-'));
    const b = await openProfile(profile, `${server.url}/`, { browser });
    try {
      // a worker that stops answering (a browser's OPFS call that never settles) gives an error
      // naming the step it was on, not a hang
      const r = await b.page.evaluate(([url, n, c, limitMs]) => new Promise((resolve) => {
        const w = new Worker(url, { type: 'module' });
        let step = 'starting';
        const timer = setTimeout(() => resolve({ error: `no answer after ${limitMs} ms, at: ${step}` }), limitMs);
        w.onmessage = (e) => {
          if (e.data.step) { step = e.data.step; return; }
          clearTimeout(timer);
          resolve(e.data);
        };
        w.onerror = (e) => resolve({ error: e.message });
        w.postMessage({ files: n, concurrency: c });
      }), [worker, files, concurrency, limitMs]);
      const version = await b.page.evaluate(() => navigator.userAgent);
      console.log(`RESULT ${browser} ${JSON.stringify({ version, ...r })}`);
      if (r.result) (results[browser] ??= []).push(r.result);
    } finally {
      await b.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }
  if (runs > 1) console.log(`MEDIANS ${JSON.stringify(mediansOverRuns(results))}`);
} finally {
  server.close();
}

// browser -> step -> the median over runs of each run's median (or of a plain number)
function mediansOverRuns(byBrowser) {
  const out = {};
  for (const [browser, list] of Object.entries(byBrowser)) {
    out[browser] = {};
    for (const key of Object.keys(list[0])) {
      const pick = (r) => (typeof r[key] === 'number' ? r[key] : r[key]?.medianMsPerFile ?? r[key]?.medianMs);
      if (typeof pick(list[0]) === 'number') out[browser][key] = median(list.map(pick));
    }
  }
  return out;
}
