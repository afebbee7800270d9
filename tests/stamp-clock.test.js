// The file system's stamp clock (runtime/fs/core/stamp_clock.c, docs/FILESYSTEM.md
// "Timestamps"): where the host keeps it in memory (Node's addon thread: stamp_ticker.c; a
// page's own thread, and Node's host thread without the addon: host/program/stamp-ticker.js) a
// write reads that cell and calls nothing;
// otherwise it asks Date.now (spindle.date_now_ms) and calls the host's JS clock
// (spindle.fs_clock_ms) only when Date.now has moved. Stamps are never ahead of the clock and
// a few milliseconds old at most, in Node and in each browser. A preload counts the imports' calls.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { browserFlag, browserTitle, runBrowsers } from './lib/browsers.js';
import { mountAddon } from '../host/platform/mount-addon.js';
import { stampTicker } from '../host/program/stamp-ticker.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'stamp-clock');
const addon = process.platform === 'linux' ? mountAddon() : null;

// Wraps the imports in every instance; each JS clock call prints the counts so far (a thread's
// worker ends without exit hooks): its calls, how often Date.now was called and had moved.
const counting = `
import { writeSync } from 'node:fs';
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  if (!imports?.spindle) return new Instance(module, imports); // (not the program's module)
  const { date_now_ms: dateNow, fs_clock_ms: clock } = imports.spindle;
  let moves = 0, clocks = 0, calls = 0, last = NaN;
  imports.spindle.date_now_ms = () => { const d = dateNow(); calls++; if (d !== last) moves++; last = d; return d; };
  imports.spindle.fs_clock_ms = () => { clocks++; writeSync(2, 'clock ' + clocks + ' moves ' + moves + ' calls ' + calls + '\\n'); return clock(); };
  return new Instance(module, imports);
};`;
// A host that keeps no clock in memory: every stamp_ticker request is refused.
const noTicker = `
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  if (imports?.spindle?.stamp_ticker) imports.spindle.stamp_ticker = () => 0;
  return new Instance(module, imports);
};`;
// A host whose ticker wrote the cell once, 50 ms behind, and never again: a ticker thread starved
// on a loaded machine.
const frozenTicker = `
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  if (imports?.spindle?.stamp_ticker) {
    const memory = Object.values(imports).flatMap((m) => Object.values(m)).find((v) => v instanceof WebAssembly.Memory);
    imports.spindle.stamp_ticker = (at) => {
      Atomics.store(new BigInt64Array(memory.buffer, at, 1), 0, BigInt(Date.now() - 50) * 1000000n);
      return 1;
    };
  }
  return new Instance(module, imports);
};`;
const preload = (code) => ['--import', `data:text/javascript,${encodeURIComponent(code)}`];

const build = async (name) => {
  const wasm = join(out, `${name}.wasm`);
  const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'fs', 'stamp', `${name}.c`), '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
  return wasm;
};
let manyWrites, staleness, sleepThenStamp;
before(async () => {
  mkdirSync(out, { recursive: true });
  [manyWrites, staleness, sleepThenStamp] = await Promise.all(['many_writes', 'stamp_staleness', 'sleep_then_stamp'].map(build));
});

/** { clocks, moves, calls } of the last JS clock call of a counted run of many_writes. */
async function countedRun(env = {}, preloads = [], args = []) {
  const r = await exec(process.execPath, [...preload(counting), ...preloads, spindle, 'run', manyWrites, ...args],
    { env: { ...process.env, ...env } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'writes 4000\n');
  const [clocks, moves, calls] = /^clock (\d+) moves (\d+) calls (\d+)$/.exec(r.stderr.trim().split('\n').at(-1)).slice(1).map(Number);
  return { clocks, moves, calls };
}

it('without a clock in memory, writes ask the JS clock only when Date.now has moved', async () => {
  const { clocks, moves, calls } = await countedRun({ SPINDLE_MOUNT_ADDON: '0' }, preload(noTicker));
  assert.equal(clocks, moves, 'one JS clock call each time Date.now moved');
  assert.ok(clocks < 4000 / 4, `far fewer JS clock calls than writes (${clocks})`);
  // (counted at the last JS clock call, not at the end: the writes after it are not in `calls`)
  assert.ok(calls >= 10 * clocks, `Date.now asked at every write, the JS clock rarely (${calls} and ${clocks})`);
});

it('with the addon\'s clock in memory, writes call no clock of the host', { skip: !addon && 'no addon' }, async () => {
  const { clocks, calls } = await countedRun();
  assert.ok(calls <= 3 && clocks <= 3, `only until the addon ticks (${calls} Date.now, ${clocks} JS clock calls)`);
});

// a package install: no addon, and the C main on a worker, so the host's thread is free to tick
it('without the addon, the host thread keeps the clock in memory and writes call no clock of the host', async () => {
  const { clocks, calls } = await countedRun({ SPINDLE_MOUNT_ADDON: '0' }, [], ['100']);
  // The ask reaches the host thread as a message, so the start's ~35 stamps (the file's creation
  // and first write, ~3 ms) read the clock themselves; none of the 4,000 writes after the pause
  // does (without a ticker: ~3,000 Date.now calls by the last JS clock call)
  assert.ok(calls < 100 && clocks < 10, `only until the host thread ticks (${calls} Date.now, ${clocks} JS clock calls)`);
});

// Linux's clock for file times is moved by the timer interrupt; a host's ticker can be starved
// (a CI machine running browsers beside the program once kept the addon's thread off for 20 ms),
// so the runtime also learns the time from the program's own clock reads and sleeps.
describe('a file written after the program saw time pass is stamped after it', () => {
  const cases = [
    { title: 'Node, the host\'s clock in memory', env: {} },
    { title: 'Node, the clock in memory frozen (a starved ticker)', env: {}, nodeArgs: preload(frozenTicker) },
    { title: 'Node without the addon, the clock in memory frozen', env: { SPINDLE_MOUNT_ADDON: '0' }, nodeArgs: preload(frozenTicker) },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      const r = await exec(process.execPath, [...(c.nodeArgs ?? []), spindle, 'run', sleepThenStamp], { env: { ...process.env, ...c.env } });
      assert.equal(r.stdout, 'ok\n', r.stdout + r.stderr);
      assert.equal(r.code, 0);
    });
  }
});

/**
 * The stamp_staleness program's { median, max, ahead } (microseconds) under `spindle run ...args`,
 * in a Node started with `nodeArgs`.
 */
async function stalenessOf(args, env = {}, nodeArgs = []) {
  const r = await exec(process.execPath, [...nodeArgs, spindle, 'run', ...args, staleness], { env: { ...process.env, ...env } });
  assert.equal(r.code, 0, r.stderr);
  const [median, max, ahead] = /^median_us (-?\d+) max_us (-?\d+) ahead (\d+)$/.exec(r.stdout.trim()).slice(1).map(Number);
  return { median, max, ahead };
}

// Linux's tick clock stamps 1-10 ms behind; a page's timer ticks every 4 ms at best. The largest
// gap is loose: on a loaded 2-core machine a tick can come late.
const hosts = [
  { title: 'Node, the addon\'s thread', args: [], median: 3000, skip: !addon && 'no addon' },
  { title: 'Node without the addon, the host thread\'s timer', args: [], env: { SPINDLE_MOUNT_ADDON: '0' }, median: 3000 },
  { title: 'Node, each thread\'s own reading (no ticker)', args: [], env: { SPINDLE_MOUNT_ADDON: '0' }, nodeArgs: preload(noTicker), median: 3000 },
  ...runBrowsers.map((name) => ({ title: `${browserTitle[name]}, the page's thread`, args: [browserFlag(name)], median: 8000 })),
];
describe('stamps are never ahead of the clock and a few milliseconds old at most', () => {
  for (const host of hosts) {
    it(host.title, { skip: host.skip }, async () => {
      const { median, max, ahead } = await stalenessOf(host.args, host.env, host.nodeArgs);
      assert.equal(ahead, 0, 'no stamp ahead of the clock read after the write');
      assert.ok(median >= 0 && median <= host.median, `median age ${median} us`);
      assert.ok(max < 100000, `largest age ${max} us`);
    });
  }
});

describe('the addon\'s stamp ticker (stamp_ticker.c)', { skip: !addon && 'no addon' }, () => {
  const base = 1700000000000000000n;
  const wallNs = () => base + process.hrtime.bigint();
  const cellAt = (buffer, at) => ({ ns: new BigInt64Array(buffer, at, 1), wanted: new Int32Array(buffer, at + 8, 1) });

  it('refuses what is no cell of the view, and arguments of the wrong kind', () => {
    const view = new DataView(new SharedArrayBuffer(64));
    for (const at of [4, 12, 49, 56, 64, -16, 2 ** 32 - 16]) assert.equal(addon.stampTicker(view, at, base), false, `at ${at}`);
    assert.equal(new BigInt64Array(view.buffer).some((v) => v !== 0n), false, 'nothing written');
    assert.throws(() => addon.stampTicker(new Uint8Array(64), 0, base), TypeError);
    assert.throws(() => addon.stampTicker(view, 0, 5), TypeError);
    assert.throws(() => addon.stampTicker(view, 0, 2n ** 70n), TypeError);
  });

  it('keeps the wall clock in the cell, never ahead, moving every millisecond or so, while stamps want it', async () => {
    const buffer = new SharedArrayBuffer(64);
    const cell = cellAt(buffer, 16);
    Atomics.store(cell.wanted, 0, 1);
    assert.equal(addon.stampTicker(new DataView(buffer), 16, base), true);
    const readings = [];
    for (let i = 0; i < 40; i++) {
      const ns = Atomics.load(cell.ns, 0);
      assert.ok(ns > 0n && ns <= wallNs(), 'a reading of the clock, not ahead of it');
      readings.push(ns);
      Atomics.store(cell.wanted, 0, 1); // as a stamp does
      await sleep(10);
    }
    assert.ok(new Set(readings).size >= 30, `the cell moves (${new Set(readings).size} of 40 readings differ)`);
    assert.ok(wallNs() - Atomics.load(cell.ns, 0) < 50_000_000n, 'a recent reading');
    // nobody wants it: within a few checks it is 0 and stays so; asked again, it ticks again
    let stoppedAfter = null;
    for (let waited = 0; waited < 2000 && stoppedAfter === null; waited += 20) {
      await sleep(20);
      if (Atomics.load(cell.ns, 0) === 0n) stoppedAfter = waited;
    }
    assert.notEqual(stoppedAfter, null, 'stopped when no stamp wanted it');
    await sleep(30);
    assert.equal(Atomics.load(cell.ns, 0), 0n);
    Atomics.store(cell.wanted, 0, 1);
    assert.equal(addon.stampTicker(new DataView(buffer), 16, base), true);
    assert.ok(Atomics.load(cell.ns, 0) > 0n, 'ticking again at once');
  });

  it('stops writing the cell when the worker that asked for it goes away', async () => {
    const buffer = new SharedArrayBuffer(64);
    const cell = cellAt(buffer, 32);
    Atomics.store(cell.wanted, 0, 1);
    const script = `const { workerData, parentPort } = require('node:worker_threads');
      const addon = require(${JSON.stringify(join(root, '.toolchain/mount-addon/mount_at.node'))});
      parentPort.postMessage(addon.stampTicker(new DataView(workerData), 32, ${base}n));`;
    const worker = new Worker(script, { eval: true, workerData: buffer });
    const [answer] = await Promise.all([new Promise((resolve) => worker.once('message', resolve)), new Promise((resolve) => worker.once('exit', resolve))]);
    assert.equal(answer, true);
    assert.equal(Atomics.load(cell.ns, 0), 0n, 'set to 0 as the worker went');
    Atomics.store(cell.wanted, 0, 1);
    await sleep(20);
    assert.equal(Atomics.load(cell.ns, 0), 0n, 'and left alone');
  });
});

describe('the page\'s stamp ticker (host/program/stamp-ticker.js)', () => {
  it('keeps the cell while stamps want it, ignores bad addresses, and sets 0 when it stops', async () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true });
    const ns = new BigInt64Array(memory.buffer, 64, 1);
    const wanted = new Int32Array(memory.buffer, 72, 1);
    const ticker = stampTicker(memory);
    for (const at of [8, 65, -16, 65536 - 8, 2 ** 40, 1.5, NaN]) ticker.request(at);
    assert.equal(new BigInt64Array(memory.buffer).some((v) => v !== 0n), false, 'nothing written for a bad address');
    Atomics.store(wanted, 0, 1);
    ticker.request(64);
    const first = Atomics.load(ns, 0);
    assert.ok(first > 0n && Number(first) / 1e6 <= performance.timeOrigin + performance.now(), 'a reading, not ahead');
    for (let i = 0; i < 10; i++) { Atomics.store(wanted, 0, 1); await sleep(20); }
    assert.ok(Atomics.load(ns, 0) > first, 'it moves');
    await sleep(400); // nobody wants it
    assert.equal(Atomics.load(ns, 0), 0n, 'stopped');
    Atomics.store(wanted, 0, 1);
    ticker.request(64);
    assert.ok(Atomics.load(ns, 0) > 0n, 'asked again, ticking again');
    ticker.stop();
    assert.equal(Atomics.load(ns, 0), 0n, 'the program ended');
  });
});
