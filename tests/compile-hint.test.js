// cli/run/compile-hint.js: a module whose last runs were short next to loading its TurboFan code
// compiles lazily on the next, and goes back to the code once its main runs longer than the
// load; threaded modules and runs that ask for a compiler keep what they asked for.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codeCacheAddon } from '../host/code-cache/addon.js';
import { chooseCompile, compileHint, parseCompileHint } from '../cli/run/compile-hint.js';
import { hintPath } from '../cli/run/hint-file.js';
import { liftoffLosesWaitValues } from '../host/compile/wasm-tiers.js';
import { exec } from './lib/exec.js';
import { removeCodeCache } from './lib/code-cache-dir.js';
import { makersDone } from '../cli/common/turbofan-maker.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');

describe('the compile choice', () => {
  it('loads the code until a run has loaded it, then compiles lazily where main took under half the load', () => {
    assert.equal(chooseCompile(null).choice, 'turbofan');
    assert.equal(chooseCompile({ loadMs: 8, mode: 'turbofan', mainMs: 1 }).choice, 'lazy');
    assert.equal(chooseCompile({ loadMs: 8, mode: 'turbofan', mainMs: 4 }).choice, 'turbofan');
    assert.match(chooseCompile({ loadMs: 8, mode: 'turbofan', mainMs: 1 }).why, /its last main took 1\.0 ms, under half the 8\.0 ms/);
  });

  it('stays lazy while a lazy main takes less than the load, so noise does not flip it each run', () => {
    assert.equal(chooseCompile({ loadMs: 8, mode: 'lazy', mainMs: 6 }).choice, 'lazy');
    assert.equal(chooseCompile({ loadMs: 8, mode: 'lazy', mainMs: 9 }).choice, 'turbofan');
  });

  it('reads only its own format', () => {
    assert.deepEqual(parseCompileHint('7.5 lazy 1.2'), { loadMs: 7.5, mode: 'lazy', mainMs: 1.2 });
    for (const bad of ['', '7 lazy 1', '7.5 eager 1.2', '-1.0 lazy 1.0', '7.5 lazy 1.2\n', 'NaN turbofan 1.0']) assert.equal(parseCompileHint(bad), null, bad);
  });
});

describe('the compile hint file', { skip: !codeCacheAddon().addon && 'no code-cache addon' }, () => {
  let dir;
  let wasm;
  let cache;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'spindle-compile-hint-'));
    wasm = join(dir, 'm.wasm');
    writeFileSync(wasm, 'not a module: only its path, size and mtime name the hint');
    cache = join(dir, 'cache');
    mkdirSync(cache, { mode: 0o700 });
  });
  after(() => removeCodeCache(dir));
  const hintText = () => readFileSync(join(cache, readdirSync(cache).find((f) => f.endsWith('.compile'))), 'latin1');

  it('keeps a load and the last main, and writes only where the next run would choose otherwise', () => {
    compileHint(wasm, cache).record({ mode: 'lazy', loadMs: 2, mainMs: 1 });
    assert.deepEqual(readdirSync(cache), [], 'a lazy run with no load known keeps nothing');
    compileHint(wasm, cache).record({ mode: 'turbofan', loadMs: 8, mainMs: 1 });
    assert.equal(hintText(), '8.0 turbofan 1.0');
    const lazy = compileHint(wasm, cache);
    assert.equal(lazy.choice, 'lazy');
    lazy.record({ mode: 'lazy', loadMs: 2, mainMs: 3 });
    assert.equal(hintText(), '8.0 turbofan 1.0', 'the same choice: not written');
    compileHint(wasm, cache).record({ mode: 'lazy', loadMs: 2, mainMs: 12 });
    assert.equal(hintText(), '8.0 lazy 12.0');
    assert.equal(compileHint(wasm, cache).choice, 'turbofan');
  });

  it('ignores a damaged file and keeps nothing without a cache', () => {
    writeFileSync(join(cache, readdirSync(cache).find((f) => f.endsWith('.compile'))), 'junk');
    assert.equal(compileHint(wasm, cache).choice, 'turbofan');
    assert.equal(compileHint(wasm, false).choice, 'turbofan');
  });
});

describe('spindle run and the compile hint', { skip: (!codeCacheAddon().addon && 'no code-cache addon') || (liftoffLosesWaitValues() && 'Node 20 runs no module lazily by itself') }, () => {
  let dir;
  const built = {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spindle-compile-runs-'));
    const sources = {
      hello: '#include <stdio.h>\nint main(void) { puts("short"); return 0; }\n',
      thread: '#include <pthread.h>\n#include <stdio.h>\nstatic void *f(void *a) { return a; }\n' +
        'int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); puts("short"); return 0; }\n',
    };
    for (const [name, text] of Object.entries(sources)) {
      writeFileSync(join(dir, `${name}.c`), text);
      built[name] = join(dir, `${name}.wasm`);
      const r = await exec(spindle, ['cc', '-O2', join(dir, `${name}.c`), '-o', built[name]], { env: { ...process.env, SPINDLE_CODE_CACHE: '0' } });
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(() => removeCodeCache(dir));

  // `spindle run`s of `wasm` one after the other: what each said of the code cache, and its stderr
  async function runs(wasm, cache, count, args = []) {
    const seen = [];
    const stderr = [];
    for (let i = 0; i < count; i++) {
      const r = await exec(spindle, ['run', `--code-cache=${cache}`, ...args, wasm], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
      assert.deepEqual([r.code, r.stdout], [0, 'short\n'], r.stderr);
      seen.push(/\[spindle\] code cache: (hit|miss|not read|off)/.exec(r.stderr)?.[1]);
      stderr.push(r.stderr);
      await makersDone(cache);
    }
    return { seen, stderr };
  }

  // (a run that did not do as expected shows its debug lines: why it missed)
  async function expectRuns(wasm, cache, expected, args = []) {
    const { seen, stderr } = await runs(wasm, cache, expected.length, args);
    assert.deepEqual(seen, expected, stderr.filter((_, i) => seen[i] !== expected[i]).join('\n'));
  }

  // (the timings a run keeps depend on the machine's load: the hint is set to a short run's here)
  const shortRun = (wasm, cache, kept = true) => {
    const file = `${hintPath(wasm, cache)}.compile`;
    if (kept) assert.match(readFileSync(file, 'latin1'), /^\d+\.\d turbofan \d+\.\d$/, 'the run that loaded the code kept its timings');
    writeFileSync(file, '500.0 turbofan 1.0');
  };

  it('a short program without threads loads its code once, then compiles lazily', async () => {
    const cache = join(dir, 'hello-cache');
    await expectRuns(built.hello, cache, ['miss', 'hit']);
    shortRun(built.hello, cache);
    await expectRuns(built.hello, cache, ['not read', 'not read']);
  });

  it('a program whose runs start threads keeps loading its code', async () => {
    const cache = join(dir, 'thread-cache');
    await expectRuns(built.thread, cache, ['miss', 'hit']);
    shortRun(built.thread, cache, false); // (its runs keep no such timings)
    await expectRuns(built.thread, cache, ['hit', 'hit']);
  });

  it('--compile=eager and SPINDLE_WASM_TIERS=optimized load the code of a short program', async () => {
    const cache = join(dir, 'eager-cache');
    await runs(built.hello, cache, 2);
    shortRun(built.hello, cache);
    await expectRuns(built.hello, cache, ['hit'], ['--compile=eager']);
    const r = await exec(spindle, ['run', `--code-cache=${cache}`, built.hello], { env: { ...process.env, SPINDLE_DEBUG: '1', SPINDLE_WASM_TIERS: 'optimized' } });
    assert.match(r.stderr, /\[spindle\] code cache: hit/);
  });
});
