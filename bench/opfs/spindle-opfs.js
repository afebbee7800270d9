// Spindle on an OPFS mount against the raw OPFS ceilings, measured in the same browser and page,
// runs interleaved (raw, Spindle, raw, Spindle, ...): bench/opfs/opfs_io.c through plain POSIX
// calls on `/data` = opfs:bench, and bench/opfs/raw-opfs.js's sync-access-handle loops.
//
//   node bench/opfs/spindle-opfs.js [--runs=5] [--mib=64] [--pollers=N] [--workers=N]
//                                                  prints RUN and RESULT lines
//
// From code (cli/bench/bench.js): `await spindleOpfsBench({ runs, mib })` -> { raw, spindle, ratios,
// targets, runs } (medians; builds the wasm unless build: false; onRun(i) is called before run i).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { measureRawOpfs } from './raw-opfs.js';
import { playwrightLaunch } from '../../cli/browser/chromium.js';
import { serveIsolated } from '../../cli/browser/isolated-server.js';
import { median } from '../report/stats.js';

const root = join(import.meta.dirname, '..', '..');
const wasmPath = join(root, 'build', 'bench', 'opfs', 'opfs_io.wasm');

/** Builds bench/opfs/opfs_io.c (spindle cc -O2). */
export function buildOpfsBench() {
  mkdirSync(join(root, 'build', 'bench', 'opfs'), { recursive: true });
  const r = spawnSync(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'bench', 'opfs', 'opfs_io.c'), '-o', wasmPath],
    { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`spindle cc opfs_io.c failed:\n${r.stderr}`);
  return wasmPath;
}

/** One run of opfs_io on an OPFS mount in `page` (with bench/opfs/run-page.js loaded). */
export async function measureSpindleOpfs(page, { mib = 64, mount = {} } = {}) {
  const r = await page.evaluate(([m, extra]) => window.spindleRun('build/bench/opfs/opfs_io.wasm', {
    args: ['opfs_io', 'bench', '/data', String(m)], mounts: [{ path: '/data', opfs: 'spindle-bench', ...extra }],
  }), [mib, mount]);
  const line = r.stdout?.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.error || r.exitCode !== 0 || !line) {
    throw new Error(`opfs_io failed (exit ${r.exitCode}): ${r.error ?? ''}\n${r.stdout}\n${r.stderr}`);
  }
  return JSON.parse(line.slice('RESULT '.length));
}

// The targets for Spindle's OPFS mount.
export const targets = {
  seq_write_1m: { vs: 'raw seq_write_1m', min: 0.8 },
  seq_read_1m: { vs: 'raw seq_read_1m', min: 0.8 },
  seq_write_4k: { vs: 'raw seq_write_4k', min: 2 },
  read_2threads_speedup: { vs: 'Spindle read_1thread', min: 1.6 },
};

export async function spindleOpfsBench({ runs = 5, mib = 64, build = true, mount = {}, onRun = () => {} } = {}) {
  if (build) buildOpfsBench();
  const server = await serveIsolated();
  const profile = mkdtempSync(join(tmpdir(), 'spindle-opfs-bench-'));
  const context = await chromium.launchPersistentContext(profile, playwrightLaunch);
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(`${server.url}/`);
    await page.addScriptTag({ type: 'module', url: 'bench/opfs/run-page.js' });
    await page.waitForFunction(() => window.spindleReady, null, { timeout: 30000 });
    const all = [];
    for (let i = 0; i < runs; i++) {
      onRun(i);
      const raw = await measureRawOpfs(page, { mib });
      const spindle = await measureSpindleOpfs(page, { mib, mount });
      all.push({ raw, spindle });
    }
    const med = (side) => Object.fromEntries(Object.keys(all[0][side]).map((k) => [k, median(all.map((r) => r[side][k]))]));
    const raw = med('raw');
    const spindle = med('spindle');
    const ratios = {
      seq_write_1m: spindle.seq_write_1m / raw.seq_write_1m,
      seq_read_1m: spindle.seq_read_1m / raw.seq_read_1m,
      seq_write_4k: spindle.seq_write_4k / raw.seq_write_4k,
      seq_read_4k: spindle.seq_read_4k / raw.seq_read_4k,
      small_files: spindle.small_files / raw.small_files,
      read_2threads_speedup: spindle.read_2threads_speedup,
    };
    return { raw, spindle, ratios, targets, runs: all };
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const a = process.argv.find((x) => x.startsWith(`--${name}=`));
    return a ? Number(a.split('=')[1]) : dflt;
  };
  // --pollers=N / --workers=N: the mount's options (docs/OPFS.md), to compare settings
  const mount = {};
  if (arg('pollers', null) !== null) mount.pollers = arg('pollers', 0);
  if (arg('workers', null) !== null) mount.workers = arg('workers', 2);
  const r = await spindleOpfsBench({ runs: arg('runs', 5), mib: arg('mib', 64), mount });
  const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  for (const run of r.runs) console.log(`RUN ${JSON.stringify({ raw: round(run.raw), spindle: round(run.spindle) })}`);
  console.log(`RESULT ${JSON.stringify({ experiment: 'opfs-raw', ...round(r.raw) })}`);
  console.log(`RESULT ${JSON.stringify({ experiment: 'opfs-spindle', ...round(r.spindle) })}`);
  console.log(`RESULT ${JSON.stringify({ experiment: 'opfs-spindle-vs-raw', ...round(r.ratios) })}`);
  for (const [k, t] of Object.entries(targets)) {
    const v = r.ratios[k];
    console.log(`target ${k}: ${v.toFixed(2)}x ${t.vs} (target >= ${t.min}x): ${v >= t.min ? 'met' : 'NOT met'}`);
  }
}
