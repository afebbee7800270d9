// Runs the napi-rs addon in a headless browser (Chromium, or Firefox): bundles page.mjs and its workers with rolldown
// (the repository's pinned devDependency), as a package's users bundle napi-rs's browser loader,
// so `@napi-rs/wasm-runtime` resolves by name; serves them cross-origin isolated with the addon
// and opens the page (tests/lib/page-result.js). Resolves the addon worker's outcome: plan.cjs's
// results for files under `dir`, how many of them are on the page's memfs volume (onVolume) and,
// with `churnRuns`, the times of that many allocChurn(2, churnIterations) calls.
// Used by tests/napi.test.js; alone, the 2-thread allocation benchmark of builds, interleaved:
//   node tests/napi/browser/run.js [--browser=firefox] RUNS ITERATIONS NAME=ADDON.wasm...
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'rolldown';
import { median } from '../../../bench/report/stats.js';
import { parseBrowserName } from '../../../cli/browser/browsers.js';
import { pageResult } from '../../lib/page-result.js';

const here = import.meta.dirname;
const entries = ['page', 'addon-worker', 'thread-worker'];

/** Bundles the page and its workers into a fresh folder; gives back its path. */
async function bundle() {
  const dir = mkdtempSync(join(tmpdir(), 'spindle-napi-browser-'));
  await build({
    input: Object.fromEntries(entries.map((name) => [name, join(here, `${name}.mjs`)])),
    platform: 'browser',
    logLevel: 'silent',
    output: { dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
  });
  return dir;
}

/** Opens the addon at `wasm` in `browser`; resolves the outcome (throws on a failed run). */
export async function runInBrowser(wasm, { dir = '/tmp/files', churnRuns = 0, churnThreads = 2, churnIterations = 0, browser = 'chromium' } = {}) {
  const bundled = await bundle();
  try {
    writeFileSync(join(bundled, 'run.json'), JSON.stringify({ dir, churnRuns, churnThreads, churnIterations }));
    const files = { '/': join(here, 'page.html'), '/addon.wasm': wasm };
    for (const name of readdirSync(bundled)) files[`/${name}`] = join(bundled, name);
    const outcome = await pageResult(files, { browser, timeout: 120000 });
    if (outcome.error) throw new Error(`the addon failed in ${browser}: ${outcome.error}`);
    if (!outcome.crossOriginIsolated) throw new Error('the page was not cross-origin isolated');
    return outcome;
  } finally {
    rmSync(bundled, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const args = process.argv.slice(2);
  const browser = parseBrowserName(args[0]?.startsWith('--browser=') ? args.shift().slice('--browser='.length) : null);
  const [runs, iterations, ...builds] = args;
  if (!Number(runs) || !Number(iterations) || !builds.length) throw new Error('usage: run.js [--browser=NAME] RUNS ITERATIONS NAME=ADDON.wasm...');
  const times = {};
  for (let i = 0; i < Number(runs); i++) {
    for (const [name, wasm] of builds.map((b) => b.split('='))) {
      const { churnMs } = await runInBrowser(wasm, { churnRuns: 1, churnIterations: Number(iterations), browser });
      (times[name] ??= []).push(...churnMs);
      console.log(`run ${i + 1} ${name}: ${churnMs.map((ms) => ms.toFixed(0)).join(' ')} ms`);
    }
  }
  for (const [name, ms] of Object.entries(times)) console.log(`${name}: median ${median(ms).toFixed(0)} ms of ${ms.length}`);
}
