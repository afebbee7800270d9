// The file system's stamp clock (runtime/fs/core/stamp_clock.c, docs/FILESYSTEM.md
// "Timestamps"): a write asks Date.now (spindle.date_now_ms) and calls the host's JS clock
// (spindle.fs_clock_ms) only when Date.now has moved, so a new thread's worker has no hot
// JavaScript of ours to compile while the thread works. A preload counts both imports' calls.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'stamp-clock');

// Wraps the two imports in every instance; each JS clock call prints the counts so far (a
// thread's worker ends without exit hooks): its calls, and how often Date.now had moved.
const counting = `
import { writeSync } from 'node:fs';
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  if (!imports?.spindle) return new Instance(module, imports); // (not the program's module)
  const { date_now_ms: dateNow, fs_clock_ms: clock } = imports.spindle;
  let moves = 0, clocks = 0, last = NaN;
  imports.spindle.date_now_ms = () => { const d = dateNow(); if (d !== last) moves++; last = d; return d; };
  imports.spindle.fs_clock_ms = () => { clocks++; writeSync(2, 'clock ' + clocks + ' moves ' + moves + '\\n'); return clock(); };
  return new Instance(module, imports);
};`;

let wasm;
before(async () => {
  mkdirSync(out, { recursive: true });
  wasm = join(out, 'many_writes.wasm');
  const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'fs', 'stamp', 'many_writes.c'), '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
});

it('writes ask the JS clock only when Date.now has moved, not once per write', async () => {
  const r = await exec(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(counting)}`, spindle, 'run', wasm]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'writes 4000\n');
  const lines = r.stderr.trim().split('\n');
  const [clocks, moves] = /^clock (\d+) moves (\d+)$/.exec(lines.at(-1)).slice(1).map(Number);
  assert.equal(clocks, moves, 'one JS clock call each time Date.now moved');
  assert.ok(clocks < 4000 / 4, `far fewer JS clock calls than writes (${clocks})`);
});
