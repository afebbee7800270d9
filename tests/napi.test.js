// The napi-rs addon tests/napi/addon (napi, napi-derive and rayon from crates.io, pinned by its
// Cargo.lock): its default wasm32-wasip1-threads build and its `spindle cargo --host=wasi` build,
// each loaded through @napi-rs/wasm-runtime in Node by tests/napi/loader.cjs, give the same
// results; and so does each build loaded the same way in headless Chromium and Firefox, in a
// dedicated worker (tests/napi/browser; tests/lib/browsers.js picks the browsers). docs/NAPI.md.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { runInBrowser } from './napi/browser/run.js';
import { buildAddon } from './napi/build.js';
import { browserTitle, testBrowsers } from './lib/browsers.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'napi');
const report = join(root, 'tests', 'napi', 'report.cjs');

// The default build (wasi-libc's dlmalloc, emnapi, the loader's threads: nothing of Spindle's)
// once trapped out of bounds in calloc as a rayon thread started, one CI run in many: its run is
// the reference, so it gets a second try, said in the output; the Spindle build gets none.
async function reportOf(wasm, { tries = 1 } = {}) {
  for (let attempt = 1; ; attempt++) {
    const r = await exec(process.execPath, ['--no-warnings', report, wasm, out], { timeoutMs: 120000 });
    const failure = `report.cjs ${wasm} failed (exit ${r.code})\n${r.stderr.slice(-3000)}`;
    if (r.code === 0) return JSON.parse(r.stdout);
    if (attempt >= tries || !/RuntimeError/.test(r.stderr)) assert.fail(failure);
    console.log(`# reference build trapped, tried again: ${failure.split('\n').find((l) => /RuntimeError/.test(l))}`);
  }
}

// The files the addon wrote through the /data preopen are on the host.
function assertWrittenOnHost(report) {
  const dir = join(out, report.files, 'out');
  assert.equal(readdirSync(dir).length, 24);
  assert.equal(readFileSync(join(dir, 'file-2.txt'), 'utf8'), 'file 2 line 0\nfile 2 line 1\nfile 2 line 2\n');
}

function importModules(wasm) {
  const imports = execFileSync('wasm-objdump', ['-x', '-j', 'Import', wasm], { encoding: 'utf8' });
  return [...new Set([...imports.matchAll(/<- ([\w-]+)\./g)].map(([, module]) => module))].sort();
}

const wasm = {};
const reports = {};
async function buildAndReport(variant) {
  mkdirSync(out, { recursive: true });
  wasm[variant] = await buildAddon(variant);
  reports[variant] = await reportOf(wasm[variant], { tries: variant === 'default' ? 2 : 1 });
}
// The default build's results are the reference of both suites.
before(() => buildAndReport('default'));

describe('napi-rs addon, default wasm build, under @napi-rs/wasm-runtime', () => {
  it('is a standard napi-rs module: napi through env, WASI, wasi.thread-spawn', () => {
    assert.deepEqual(importModules(wasm.default), ['env', 'wasi', 'wasi_snapshot_preview1']);
  });

  it('computes on rayon threads, writes and reads files, churns allocations', () => {
    const got = reports.default;
    assert.equal(got.sum, '499897499674'); // the sum over 0..1e6 of (i * i) % 1000003
    const names = Array.from({ length: 24 }, (_, i) => `file-${i}.txt`).sort();
    assert.deepEqual(got.read, { names, lines: names.map((name) => Number(/\d+/.exec(name)[0]) + 1) });
    assert.equal(got.written, 4550);
    assert.equal(got.churn.length, 2);
    assert.ok(got.churn.every(Number.isInteger), JSON.stringify(got.churn));
    assert.equal(got.poolThreads, 1, 'std cannot count cores on this target, so rayon\'s global pool has one thread');
    assertWrittenOnHost(got);
  });
});

describe('napi-rs addon, spindle cargo --host=wasi build, under the same loader', () => {
  before(() => buildAndReport('spindle'));

  it('imports only what napi-rs\'s own build imports, and has Spindle\'s malloc', () => {
    assert.deepEqual(importModules(wasm.spindle), ['env', 'wasi', 'wasi_snapshot_preview1']);
    const names = execFileSync('wasm-objdump', ['-x', '-j', 'Name', wasm.spindle], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.ok(!/<dlmalloc>/.test(names), 'wasi-libc\'s dlmalloc is still in the module');
  });

  it('gives the same results as the default build', () => {
    const { poolThreads, files, ...got } = reports.spindle;
    const { poolThreads: defaultPool, files: defaultFiles, ...expected } = reports.default;
    assert.deepEqual(got, expected);
    // through the preopen, now a mount of Spindle's tree whose calls go to the host's WASI
    assertWrittenOnHost(reports.spindle);
    assert.equal(defaultPool, 1);
    // sysconf answers the loader's SPINDLE_CPU_COUNT, so rayon's global pool has every core
    assert.equal(poolThreads, availableParallelism());
  });
});

// Files under /tmp: the default build's go to the page's memfs volume (napi-rs's loader preopens
// its root), the Spindle build's stay in its own in-memory file system (a preopen of `/` is not
// mounted). Under /data, a named preopen, the Spindle build's go to the volume too.
const browserRuns = [
  { variant: 'default', dir: '/tmp/files', onVolume: 24 },
  { variant: 'spindle', dir: '/tmp/files', onVolume: 0 },
  { variant: 'spindle', dir: '/data/files', onVolume: 24 },
];
for (const browser of testBrowsers) {
  describe(`napi-rs addon in ${browserTitle[browser]}, loaded through @napi-rs/wasm-runtime in a worker`, () => {
    for (const { variant, dir, onVolume } of browserRuns) {
      it(`runs the ${variant} build with the results it gives in Node, files under ${dir}`, async () => {
        if (!wasm[variant]) await buildAndReport(variant);
        const { poolThreads, churnMs, crossOriginIsolated, onVolume: filesOnVolume, ...got } = await runInBrowser(wasm[variant], { dir, browser });
        const { poolThreads: nodePool, files, ...expected } = reports.default;
        assert.deepEqual(got, expected);
        assert.equal(filesOnVolume, onVolume, 'the files the addon wrote on the page\'s memfs volume');
        // the loader gives the Spindle build the page's core count (navigator.hardwareConcurrency)
        assert.equal(poolThreads, variant === 'default' ? nodePool : availableParallelism());
      });
    }
  });
}
