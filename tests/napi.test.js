// The napi-rs addon tests/napi/addon (napi, napi-derive and rayon from crates.io, pinned by its
// Cargo.lock): its default wasm32-wasip1-threads build and its `spindle cargo --host=wasi` build,
// each loaded through @napi-rs/wasm-runtime in Node by tests/napi/loader.cjs, give the same
// results. docs/NAPI.md.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { buildAddon } from './napi/build.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'napi');
const report = join(root, 'tests', 'napi', 'report.cjs');

async function reportOf(wasm) {
  const r = await exec(process.execPath, ['--no-warnings', report, wasm, out], { timeoutMs: 120000 });
  assert.equal(r.code, 0, `report.cjs ${wasm} failed (exit ${r.code})\n${r.stderr.slice(-3000)}`);
  return JSON.parse(r.stdout);
}

function importModules(wasm) {
  const imports = execFileSync('wasm-objdump', ['-x', '-j', 'Import', wasm], { encoding: 'utf8' });
  return [...new Set([...imports.matchAll(/<- ([\w-]+)\./g)].map(([, module]) => module))].sort();
}

describe('napi-rs addon, default wasm build, under @napi-rs/wasm-runtime', () => {
  let wasm;
  before(async () => {
    mkdirSync(out, { recursive: true });
    wasm = await buildAddon('default', join(out, 'default'));
  });

  it('is a standard napi-rs module: napi through env, WASI, wasi.thread-spawn', () => {
    assert.deepEqual(importModules(wasm), ['env', 'wasi', 'wasi_snapshot_preview1']);
  });

  it('computes on rayon threads, writes and reads files, churns allocations', async () => {
    const got = await reportOf(wasm);
    assert.equal(got.sum, '499897499674'); // the sum over 0..1e6 of (i * i) % 1000003
    const names = Array.from({ length: 24 }, (_, i) => `file-${i}.txt`).sort();
    assert.deepEqual(got.read, { names, lines: names.map((name) => Number(/\d+/.exec(name)[0]) + 1) });
    assert.equal(got.written, 4550);
    assert.equal(got.churn.length, 2);
    assert.ok(got.churn.every(Number.isInteger), JSON.stringify(got.churn));
    assert.equal(got.poolThreads, 1, 'std cannot count cores on this target, so rayon\'s global pool has one thread');
  });
});
