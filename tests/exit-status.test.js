// How a `spindle` process ends (cli/common/exit-status.js): by _exit(2) once the command is done
// where Node would write nothing at its exit, by Node's own exit where it would. Either way the
// status, the output and what Node writes at its exit (profiles, its module cache) are all there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeWritesAtExit } from '../cli/common/exit-status.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'run');
const LINES = 200000;
const expected = Array.from({ length: LINES }, (_, i) => `line ${i} of the run's output\n`).join('');

describe('whether Node writes something at its exit', () => {
  it('not with no flags, or only wasm compilers\' flags', () => {
    assert.equal(nodeWritesAtExit({}, []), false);
    assert.equal(nodeWritesAtExit({ NODE_OPTIONS: ' ' }, ['--liftoff', '--no-wasm-tier-up', '--wasm-lazy-compilation']), false);
  });
  it('with a profile, coverage or any other flag, in argv or NODE_OPTIONS', () => {
    assert.equal(nodeWritesAtExit({}, ['--cpu-prof']), true);
    assert.equal(nodeWritesAtExit({}, ['--liftoff', '--heap-prof']), true);
    assert.equal(nodeWritesAtExit({ NODE_OPTIONS: '--cpu-prof' }, []), true);
    assert.equal(nodeWritesAtExit({ NODE_V8_COVERAGE: '/tmp/cov' }, []), true);
  });
});

describe('a run\'s end', () => {
  let wasm;
  let scratch;
  before(async () => {
    mkdirSync(out, { recursive: true });
    wasm = join(out, 'much_output.wasm');
    const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'run', 'much_output.c'), '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
    scratch = mkdtempSync(join(tmpdir(), 'spindle-exit-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('keeps every byte written to a pipe, and main\'s status', async () => {
    const r = await exec(spindle, ['run', wasm, String(LINES)]);
    assert.equal(r.code, 5, r.stderr);
    assert.equal(r.stdout.length, expected.length);
    assert.ok(r.stdout === expected, 'the output differs');
  });

  it('keeps every byte written to a file', async () => {
    const file = join(scratch, 'out.txt');
    const code = await new Promise((resolve, reject) => {
      const { openSync, closeSync } = process.getBuiltinModule('node:fs');
      const fd = openSync(file, 'w');
      const child = spawn(spindle, ['run', wasm, String(LINES)], { stdio: ['ignore', fd, 'inherit'] });
      closeSync(fd);
      child.on('error', reject);
      child.on('close', resolve);
    });
    assert.equal(code, 5);
    assert.ok(readFileSync(file, 'utf8') === expected, 'the file differs');
  });

  // what Node writes, and the name of its main thread's file (Node 20 takes no --cpu-prof in NODE_OPTIONS)
  const profiled = [
    { how: 'node --cpu-prof', nodeArgs: (dir) => ['--cpu-prof', `--cpu-prof-dir=${dir}`], env: () => ({}), main: /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/ },
    { how: 'NODE_OPTIONS=--cpu-prof', nodeArgs: () => [], env: (dir) => ({ NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` }), main: /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/, since: 22 },
    { how: 'NODE_V8_COVERAGE', nodeArgs: () => [], env: (dir) => ({ NODE_V8_COVERAGE: dir }), main: /^coverage-\d+-\d+-0\.json$/ },
  ];
  for (const { how, nodeArgs, env, main, since = 0 } of profiled) {
    it(`still lets Node write what it writes at its exit (${how})`, async (t) => {
      if (Number(process.versions.node.split('.')[0]) < since) return t.skip(`Node ${since} and later`);
      const dir = mkdtempSync(join(scratch, 'prof-'));
      const r = await exec(process.execPath, [...nodeArgs(dir), spindle, 'run', wasm, '3'], { env: { ...process.env, ...env(dir) } });
      assert.equal(r.code, 5, r.stderr);
      // (the main thread's: thread 0; each worker writes its own when it ends)
      const written = readdirSync(dir).filter((f) => main.test(f));
      assert.ok(written.length >= 1, `nothing of the main thread's in ${dir}: ${readdirSync(dir)}`);
      for (const f of written) assert.ok(Object.keys(JSON.parse(readFileSync(join(dir, f), 'utf8'))).length > 0);
    });
  }

  it('writes Node\'s module cache of a command that loaded the modules', async (t) => {
    if (Number(process.versions.node.split('.')[0]) < 22) return t.skip('Node 20 has no module cache');
    const cacheDir = mkdtempSync(join(scratch, 'cache-'));
    // (`spindle bench` runs from the modules, with the module cache on in its main thread, and
    // with --help starts no other Node that could keep them instead)
    const r = await exec(spindle, ['bench', '--help'], { env: { ...process.env, SPINDLE_CODE_CACHE_DIR: cacheDir } });
    assert.equal(r.code, 0, r.stderr);
    const kept = readdirSync(join(cacheDir, 'js'), { recursive: true });
    assert.ok(kept.length > 0, 'Node kept no module of the command');
  });
});
