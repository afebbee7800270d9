// `spindle bench --quick` as CI's smoke test of the runner (no timing assertions): every series
// of every experiment produces numbers, the outputs exist, and the report renders in Chromium.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'bench');
const browser = process.env.SPINDLE_TEST_BROWSER !== '0';

describe('spindle bench --quick', () => {
  it('runs every experiment and writes table, JSON, charts and a report that renders', async () => {
    rmSync(out, { recursive: true, force: true });
    const r = await exec(join(root, 'bin', 'spindle'), ['bench', '--quick', '--runs=1', '--threads=1,2', '--node',
      ...(browser ? ['--browser'] : []), `--out=${out}`], { timeoutMs: 15 * 60 * 1000 });
    assert.equal(r.code, 0, r.stderr);
    // Only the third-party npm WASI host may fail a series (its own crashes, e.g. emnapi's
    // terminateAllThreads at exit in Chromium): the report says so; ours must never fail.
    for (const line of r.stdout.split('\n').filter((l) => / failed: /.test(l))) assert.match(line, /npm WASI/, line);

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    const ids = results.experiments.map((e) => e.id);
    for (const id of ['math', 'malloc-reference', 'malloc-larson', 'malloc-prodcons', 'fs-stdio-files', 'fs-call-cost', 'io-hostdir',
      ...(browser ? ['io-opfs'] : [])]) assert.ok(ids.includes(id), id);
    // the file I/O suites (bench/io) print their targets, measured or not met, never missing
    for (const e of results.experiments.filter((x) => x.id.startsWith('io-'))) {
      assert.ok(e.targets?.length >= 2 && e.targets.every((t) => t.value > 0), `${e.id}: ${e.series.map((s) => s.error).join('; ')}`);
      assert.match(r.stdout, new RegExp(`\\[${e.id}; baseline`));
    }
    assert.match(r.stdout, /target: 1 MiB sequential reads: Spindle time \/ node:fs time: [\d.]+x \(target <= 1.5x\): (met|NOT met)/);
    for (const e of results.experiments) {
      for (const s of e.series) {
        if (s.error && /^npm-wasi/.test(s.variant)) continue;
        assert.equal(s.error, undefined, `${e.id} / ${s.label}: ${s.error}`);
        for (const t of e.threads) {
          // The npm WASI host cannot run some points (bench/npm-wasi): they say why instead.
          if (s.na?.[t]) {
            assert.match(s.variant, /^npm-wasi/, `${e.id} / ${s.label} / ${t}: n/a: ${s.na[t]}`);
            assert.equal(s.runs[t].length, 0);
            continue;
          }
          assert.equal(s.runs[t].length, 1, `${e.id} / ${s.label} / ${t} threads`);
          assert.ok(s.runs[t][0].ms > 0, `${e.id} / ${s.label} / ${t} threads has a time`);
        }
      }
      if (e.id === 'fs-call-cost') { // the npm WASI host runs it from a worker, in every host asked for
        const npm = e.series.filter((s) => s.variant === 'npm-wasi-worker');
        assert.equal(npm.length, browser ? 2 : 1);
        for (const s of npm) assert.ok(s.runs.thread[0].ms > 0, s.label);
      }
      if (e.id.startsWith('malloc')) {
        const hosts = new Set(e.series.map((s) => s.host));
        assert.ok(hosts.has('native') && hosts.has('node') && (!browser || hosts.has('browser')));
      }
    }
    assert.ok(results.machine.cores >= 1 && results.machine.loadAfter.length === 3);
    assert.match(readFileSync(join(out, 'table.txt'), 'utf8'), /Reference malloc workload/);
    const svgs = readdirSync(out).filter((f) => f.endsWith('.svg'));
    assert.ok(svgs.includes('math.svg') && svgs.includes('malloc-reference-log.svg'), svgs.join(' '));
    for (const f of svgs) assert.match(readFileSync(join(out, f), 'utf8'), /<polyline|<rect x=/, f);

    if (!browser) return;
    const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await b.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(`file://${join(out, 'report.html')}`);
      assert.equal(await page.locator('svg').count(), svgs.length);
      assert.ok(await page.locator('svg polyline').count() > 5, 'the charts have lines');
      await page.screenshot({ path: join(out, 'report.png'), fullPage: true });
    } finally {
      await b.close();
    }
    assert.ok(existsSync(join(out, 'report.png')) && statSync(join(out, 'report.png')).size > 50000);
  });
});
