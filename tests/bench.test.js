// `spindle bench --quick` as CI's smoke test of the runner (no timing assertions): every family of
// experiments runs, every series produces numbers, the verdicts open and close the table, the
// progress goes to stderr, the outputs exist, and the report renders in Chromium. The npm WASI
// host (a --full series) gets one run of its own.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { playwrightLaunch } from '../cli/browser/chromium.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'bench');
const browser = process.env.SPINDLE_TEST_BROWSER !== '0';

describe('spindle bench --quick', () => {
  it('runs every family of experiments and writes table, JSON, charts and a report that renders', async () => {
    rmSync(out, { recursive: true, force: true });
    const r = await exec(join(root, 'bin', 'spindle'), ['bench', '--quick', '--node', ...(browser ? ['--browser'] : []), `--out=${out}`],
      { timeoutMs: 15 * 60 * 1000 });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, / failed: /);

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    assert.deepEqual([results.options.runs, results.options.threads], [1, [1, 2]]);
    const ids = results.experiments.map((e) => e.id);
    for (const id of ['math', 'malloc-reference', 'fs-stdio-files', 'fs-new-files', 'io-hostdir', 'io-mount-calls', ...(browser ? ['io-opfs'] : [])]) {
      assert.ok(ids.includes(id), id);
    }
    assert.deepEqual(Object.keys(results.options.runModes), ['node', 'browser', 'firefox', 'webkit', 'native']);
    // the verdicts open and close the table: every target met or NOT met, then the machine
    const table = r.stdout.slice(0, r.stdout.lastIndexOf('\nresults: '));
    const verdictBlock = (lines) => lines.slice(0, lines.findIndex((l) => /^machine: /.test(l)) + 1);
    const head = verdictBlock(table.split('\n'));
    assert.match(head[0], /^== Verdicts: \d+ of \d+ targets met(; \d+ not judged \(need more cores\))? ==$/);
    assert.ok(head.length > 8 && head.slice(1, -1).every((l) => /^(met|NOT met|needs \d+ cores) /.test(l) || /^WARNING: /.test(l)), head.join('\n'));
    assert.ok(table.trimEnd().split('\n').slice(-head.length - 1).join('\n').includes(head.join('\n')), 'the verdicts again at the end');
    // progress on stderr, plain lines when it is not a terminal: done/total only grows
    const progress = r.stderr.split('\n').filter((l) => l.startsWith('['));
    assert.ok(progress.length > 10 && progress.every((l) => /^\[\d+\/\d+ \d+%, (about \w+ left|time left: estimating)\] /.test(l)), r.stderr);
    const counts = progress.map((l) => l.match(/^\[(\d+)\/(\d+)/).slice(1).map(Number));
    assert.ok(counts.every(([done, total], i) => total === counts[0][1] && (i === 0 || done >= counts[i - 1][0])));
    assert.ok(progress.some((l) => /about \w+ left/.test(l)));
    // the file I/O suites (bench/io) print their targets, measured or not met, never missing
    for (const e of results.experiments.filter((x) => x.id.startsWith('io-'))) {
      assert.ok(e.targets?.length >= 2 && e.targets.every((t) => t.value > 0), `${e.id}: ${e.series.map((s) => s.error).join('; ')}`);
      assert.match(r.stdout, new RegExp(`\\[${e.id}; baseline`));
    }
    assert.match(r.stdout, /target: 1 MiB sequential reads: Spindle time \/ node:fs time: [\d.]+x \(target <= 1.5x\): (met|NOT met)/);
    for (const e of results.experiments) {
      for (const s of e.series) {
        assert.equal(s.error, undefined, `${e.id} / ${s.label}: ${s.error}`);
        for (const t of e.threads) {
          // a point the series has no value at, as the experiment says (info.noValue)
          if (e.info?.noValue?.[s.variant]?.includes(t)) {
            assert.equal(s.runs[t].length, 0, `${e.id} / ${s.label} / ${t}: no value`);
            continue;
          }
          assert.equal(s.runs[t].length, 1, `${e.id} / ${s.label} / ${t} threads`);
          assert.ok(s.runs[t][0].ms > 0, `${e.id} / ${s.label} / ${t} threads has a time`);
          // every program run also has its whole run's time, which holds the time it measured
          if (e.pointLabel !== 'case') assert.ok(s.runs[t][0].wall_ms >= s.runs[t][0].ms, `${e.id} / ${s.label} / ${t}: wall`);
        }
      }
      if (e.pointLabel !== 'case') assert.match(r.stdout, new RegExp(`\\[${e.id}; baseline[^]*?\\nran as: ${e.series[0].host}: `));
      if (e.id.startsWith('malloc')) {
        const hosts = new Set(e.series.map((s) => s.host));
        assert.ok(hosts.has('native') && hosts.has('node') && (!browser || hosts.has('browser')));
      }
    }
    // the fresh files: a 64 MiB working set at the 1 MiB point; the mount walk's processes whole
    const newFiles = results.experiments.find((e) => e.id === 'fs-new-files');
    assert.deepEqual(newFiles.threads, ['4KiB x 200', '64KiB x 200', '1MiB x 64']);
    assert.ok(newFiles.series.every((s) => s.runs['1MiB x 64'][0].live_mb > 50 && s.runs['1MiB x 64'][0].mismatches === 0));
    const mountCalls = results.experiments.find((e) => e.id === 'io-mount-calls');
    assert.ok(mountCalls.series.every((s) => s.runs['whole process, spawn to exit'][0].ms >= s.runs['walk of 2,000 files'][0].ms));
    assert.ok(results.machine.cores >= 1 && results.machine.loadAfter.length === 3);
    assert.match(readFileSync(join(out, 'table.txt'), 'utf8'), /Reference malloc workload/);
    const svgs = readdirSync(out).filter((f) => f.endsWith('.svg'));
    assert.ok(svgs.includes('math.svg') && svgs.includes('malloc-reference-log.svg'), svgs.join(' '));
    for (const f of svgs) assert.match(readFileSync(join(out, f), 'utf8'), /<polyline|<rect x=/, f);

    if (!browser) return;
    const b = await chromium.launch(playwrightLaunch);
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

  it('runs the npm WASI host baseline when --variants names it', async () => {
    const npmOut = join(out, 'npm-wasi');
    const r = await exec(join(root, 'bin', 'spindle'), ['bench', '--quick', '--node', ...(browser ? ['--browser'] : []),
      '--only=^fs-call-cost$', '--variants=^npm-wasi-worker$', `--out=${npmOut}`], { timeoutMs: 5 * 60 * 1000 });
    assert.equal(r.code, 0, r.stderr);
    const [e] = JSON.parse(readFileSync(join(npmOut, 'results.json'), 'utf8')).experiments;
    assert.equal(e.id, 'fs-call-cost');
    // it runs the file calls from a worker in every host asked for; only this third-party host may
    // fail a run (its own crashes, e.g. emnapi's terminateAllThreads at exit in Chromium)
    assert.deepEqual(e.series.map((s) => s.id), ['npm-wasi-worker@node', ...(browser ? ['npm-wasi-worker@browser'] : [])]);
    for (const s of e.series) assert.ok(s.error || s.runs.thread[0].ms > 0, s.label);
    assert.ok(e.series[0].runs.thread[0].ms > 0, e.series[0].error);
  });

  it('runs the browser series in Chromium and Firefox, each named with its version (--browser=chromium,firefox)', { skip: !browser }, async () => {
    const twoOut = join(out, 'two-browsers');
    const r = await exec(join(root, 'bin', 'spindle'), ['bench', '--quick', '--browser=chromium,firefox', '--only=^math$',
      '--variants=^wasm$', '--threads=1', `--out=${twoOut}`], { timeoutMs: 5 * 60 * 1000 });
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(readFileSync(join(twoOut, 'results.json'), 'utf8'));
    assert.deepEqual(results.machine.browsers, ['chromium', 'firefox']);
    assert.match(results.machine.firefox, /^Mozilla Firefox \d+/);
    const [e] = results.experiments;
    assert.deepEqual(e.series.map((s) => [s.id, s.label.replace(/\d+\)$/, 'N)')]), [['wasm@browser', 'wasm (Chromium N)'], ['wasm@firefox', 'wasm (Firefox N)']]);
    for (const s of e.series) assert.ok(s.runs[1][0].ms > 0, `${s.label}: ${s.error}`);
    assert.match(r.stdout, /\nran as: firefox: Firefox, javascript\.options\.wasm_baselinejit=false/);
    assert.match(readFileSync(join(twoOut, 'report.html'), 'utf8'), /Chromium \d+[^,]*, Mozilla Firefox \d+/);
  });

  it('--node-bin runs the job on that Node (setup\'s current LTS), and refuses what is no Node', async () => {
    const [lts] = readFileSync(join(root, 'scripts', 'versions.env'), 'utf8').match(/^NODE_LTS_VERSION=(\S+)/m).slice(1);
    const ltsOut = join(out, 'node-lts');
    const r = await exec(join(root, 'bin', 'spindle'), ['bench', '--quick', '--only=^math$', '--variants=^wasm$', '--threads=1',
      `--node-bin=${join(root, '.toolchain', `node-${lts}`, 'bin', 'node')}`, `--out=${ltsOut}`], { timeoutMs: 5 * 60 * 1000 });
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(readFileSync(join(ltsOut, 'results.json'), 'utf8'));
    assert.equal(results.machine.node, `v${lts}`);
    assert.ok(results.experiments[0].series[0].runs[1][0].ms > 0, JSON.stringify(results.experiments[0].series[0]));
    assert.match(r.stdout, new RegExp(`^machine: .*, Node v${lts.replaceAll('.', '\\.')};`, 'm'));
    const bad = await exec(join(root, 'bin', 'spindle'), ['bench', '--node-bin=/nonexistent/node']);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, 'spindle: --node-bin=/nonexistent/node: cannot run it (ENOENT)\n');
  });
});
