// cli/run/thread-hint.js: how many threads' workers a run starts early, from what the module's last
// runs used (docs/HOST.md, "Seventh pass"), and what a damaged hint file means.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codeCacheAddon } from '../host/code-cache/addon.js';
import { threadHint } from '../cli/run/thread-hint.js';
import { exec } from './lib/exec.js';
import { removeCodeCache } from './lib/code-cache-dir.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');

describe('the thread hint', { skip: !codeCacheAddon().addon && 'no code-cache addon' }, () => {
  let dir;
  let wasm;
  let cache;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'spindle-hint-'));
    wasm = join(dir, 'm.wasm');
    writeFileSync(wasm, 'not a module: only its path, size and mtime name the hint');
    cache = join(dir, 'cache');
    // (the cache directory must be the user's and private, as store.js checks)
    mkdirSync(cache, { mode: 0o700 });
  });
  after(() => removeCodeCache(dir));
  const hintFile = () => join(cache, readdirSync(cache).find((f) => f.endsWith('.threads')));

  it('a first run starts two on two cores or more, none on one; records what each run used, latest first, four at most', () => {
    assert.equal(threadHint(wasm, cache, 1).workers, 0);
    const first = threadHint(wasm, cache, 8);
    assert.deepEqual([first.workers, first.last], [2, undefined]);
    for (const used of [3, 0, 1, 0, 5]) threadHint(wasm, cache, 8).record(used);
    assert.equal(readFileSync(hintFile(), 'latin1'), '5 0 1 0');
    const next = threadHint(wasm, cache, 8);
    assert.deepEqual([next.workers, next.last], [5, [5, 0, 1, 0]]);
    assert.equal(threadHint(wasm, cache, 2).workers, 2, 'at most one per core');
  });

  it('reads a damaged file as a run that used none, an empty one (an older hint) as one, and caps a huge number', () => {
    for (const [text, workers] of [['junk', 0], ['1 2 x', 0], ['', 1], ['9999', 16], ['-1', 0]]) {
      writeFileSync(hintFile(), text);
      assert.equal(threadHint(wasm, cache, 16).workers, workers, JSON.stringify(text));
    }
  });

  it('gives none without a cache', () => {
    assert.equal(threadHint(wasm, false, 8).workers, 0);
  });
});

describe('workers a run uses', { skip: !codeCacheAddon().addon && 'no code-cache addon' }, () => {
  let dir;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'spindle-rounds-')); });
  after(() => removeCodeCache(dir));
  /** tests/run/thread_rounds.c built as `name`.wasm in the test's folder. */
  async function threadRounds(name) {
    const wasm = join(dir, `${name}.wasm`);
    const cc = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'run', 'thread_rounds.c'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    return wasm;
  }

  // host/threads/control.js, waitForEndingSlot: a pthread_create right after the last round's joins
  // waits for an ending thread's worker instead of booting a third
  it('rounds of two threads created right after the joins of the last use two workers, not three', async () => {
    const wasm = await threadRounds('thread_rounds');
    // TurboFan code for every run (each has a cache of its own, for a hint of its own): a first
    // run's Liftoff code can be slow enough in main that each round's first thread ends before
    // its second starts, which then reuses that worker
    const made = join(dir, 'made');
    mkdirSync(made, { mode: 0o700 });
    assert.equal((await exec(spindle, ['run', `--code-cache=${made}`, wasm, '1'])).code, 0);
    for (let waited = 0; !readdirSync(made).some((f) => f.endsWith('.code')) && waited < 60000; waited += 100) {
      await new Promise((done) => setTimeout(done, 100));
    }
    const code = readdirSync(made).find((f) => f.endsWith('.code'));
    assert.ok(code, 'no TurboFan code made within 60 s of the run');
    for (let run = 0; run < 3; run++) {
      const cache = join(dir, `cache-${run}`);
      mkdirSync(cache, { mode: 0o700 });
      copyFileSync(join(made, code), join(cache, code));
      const r = await exec(spindle, ['run', `--code-cache=${cache}`, wasm, '50'], { env: { ...process.env, SPINDLE_CODE_CACHE_PREFILL: '0', SPINDLE_DEBUG: '1' } });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'rounds 50\n');
      assert.match(r.stderr, /\[spindle\] code cache: hit/);
      const hint = readdirSync(cache).find((f) => f.endsWith('.threads'));
      assert.equal(readFileSync(join(cache, hint), 'latin1'), '2', `run ${run}: the workers its threads used`);
    }
  });

  // (the C main in a worker: a host without the addon that ends the process from any thread)
  it('a run whose C main is in a worker starts the hint\'s threads\' workers too', async () => {
    const wasm = await threadRounds('thread_rounds_worker');
    const cache = join(dir, 'cache-worker');
    mkdirSync(cache, { mode: 0o700 });
    const env = { ...process.env, SPINDLE_MAIN_THREAD: 'worker', SPINDLE_DEBUG: '1' };
    // a first run starts two on two cores or more; the next as many as the first used (two), one a core
    const cores = availableParallelism();
    for (const [run, early] of [[0, cores > 1 ? 2 : 0], [1, Math.min(2, cores)]]) {
      const r = await exec(spindle, ['run', `--code-cache=${cache}`, wasm, '3'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'rounds 3\n');
      assert.match(r.stderr, /\[spindle\] C main: in a worker/);
      assert.match(r.stderr, new RegExp(`threads' workers started early: ${early} `), `run ${run}`);
    }
  });
});
