// SQLite crash trials on a host-directory mount (docs/MOUNTS.md, "Durability"): the writer of
// tests/real/sqlite_crash.c commits transactions on /d/test.db under `spindle run --mount` and is
// killed with SIGKILL (its whole process group) at a random moment: at a random delay from its
// start (sometimes while it is still rolling back the last trial's hot journal or replaying its
// WAL), or right after a random "committed N" line. A copy of the files it left is checked by the
// native build of the same program, and every 10th trial also by the wasm build through a mount:
// integrity_check "ok", the table exactly the state after some commit M, M at least the last
// commit the writer printed, and both readers' lines equal. The next trial's writer continues the
// same database from the files as the kill left them and must find the same M.
// The trials cover SQLite's rollback journal (journal_mode=DELETE) and WAL, half each; SQLite's
// WASI build has WAL only with locking_mode=EXCLUSIVE (sqlite_crash.c says why). 100 trials, 1,000
// with SPINDLE_TEST_LONG=1; the seed is printed, SPINDLE_CRASH_SEED=N repeats a run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { buildCrashPrograms, checkNative, crashSeed as seed, dbFiles, median, parseCheck, planEnd, prng } from './real/sqlite-crash-trials.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const trials = process.env.SPINDLE_TEST_LONG === '1' ? 1000 : 100;

let scratch;
let wasm;
let native;
before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'spindle-sqlite-crash-'));
  ({ wasm, native } = await buildCrashPrograms());
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Runs the writer on a mount of `dir` until `plan` kills it: { after: 'spawn'|'start', ms } or
 * { commits: k }. Resolves with how it ended, its "start" value, the last commit it printed, and
 * how long it took to print "start".
 */
function runWriter(dir, mode, plan) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // detached: its own process group, so the kill reaches every process `spindle run` has
    const child = spawn(process.execPath, [spindle, 'run', `--mount=/d=${dir}`, wasm, 'write', '/d/test.db', mode, '1000000'],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    };
    const safety = setTimeout(kill, 30000);
    let timer = null;
    if (plan.after === 'spawn') timer = setTimeout(kill, plan.ms);
    let pending = '';
    let stdout = '';
    let stderr = '';
    let start = null;
    let startMs = null;
    let last = null;
    let commits = 0;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop();
      for (const line of parts) {
        let m;
        if ((m = /^start (\d+)$/.exec(line))) {
          start = Number(m[1]);
          startMs = performance.now() - t0;
          if (plan.after === 'start') timer = setTimeout(kill, plan.ms);
        } else if ((m = /^committed (\d+)$/.exec(line))) {
          last = Number(m[1]);
          if (++commits === plan.commits) kill();
        }
      }
    });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(safety);
      clearTimeout(timer);
      kill(); // nothing of the group outlives the trial
      resolve({ code, signal, start, startMs, last, commits, stdout: stdout.slice(-2000), stderr: stderr.slice(-2000) });
    });
  });
}

// Copies the database and whichever of its journal, WAL and shm files exist, as the kill left them.
function snapshot(from, to) {
  mkdirSync(to);
  const present = [];
  for (const name of dbFiles) {
    const f = join(from, name);
    if (!existsSync(f)) continue;
    copyFileSync(f, join(to, name));
    present.push(`${name}:${statSync(f).size}`);
  }
  return present;
}

async function check(side, dir) {
  if (side === 'native') return checkNative(native, dir);
  return parseCheck(await exec(process.execPath, [spindle, 'run', `--mount=/d=${dir}`, wasm, 'check', '/d/test.db']), `spindle check of ${dir}`);
}

async function runTrials(t, mode, count, rand) {
  const dir = join(scratch, mode);
  mkdirSync(dir);
  const stats = { kills: { spawn: 0, start: 0, commits: 0 }, commits: 0, wasmChecks: 0, printedBehind: 0, leftover: 0, startTimes: [] };
  let known = 0; // the highest commit the last check found
  let startMs = 400; // the latest time the writer took to open the database, to aim early kills at
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    // from spawn: aimed at the open, where the writer recovers from the last kill (Node and the
    // module take the first half); from "start": anywhere in the stream of commits
    const plan = planEnd(rand, startMs);
    const what = `${mode} trial ${i} (seed ${seed}, plan ${JSON.stringify(plan)})`;
    const w = await runWriter(dir, mode, plan);
    assert.equal(w.signal, 'SIGKILL', `${what}: the writer ended by itself (exit ${w.code}):\n${w.stdout}\n${w.stderr}`);
    assert.ok(plan.after === 'spawn' || w.start !== null, `${what}: killed before it opened the database\n${w.stdout}\n${w.stderr}`);
    assert.ok(!plan.commits || w.commits >= plan.commits, `${what}: killed after ${w.commits} commits`);
    stats.kills[plan.after ?? 'commits']++;
    if (w.startMs !== null) { startMs = w.startMs; stats.startTimes.push(w.startMs); }
    // its own recovery of the last kill found what the native reader found
    if (w.start !== null) assert.equal(w.start, known, `${what}: the writer started at ${w.start}, the last check found ${known}`);
    const snap = join(scratch, `${mode}-${i}`);
    const files = snapshot(dir, snap);
    if (files.length > 1) stats.leftover++;
    const n = await check('native', snap);
    const printed = w.last ?? known;
    assert.ok(n.max >= printed, `${what}: commit ${printed} returned, the database holds up to ${n.max} (files ${files.join(' ')})`);
    stats.printedBehind += n.max - printed;
    stats.commits += w.commits;
    if (i % 10 === 9) {
      // a second copy: the native reader has rolled back or checkpointed the first
      const again = `${snap}-wasm`;
      snapshot(dir, again);
      const s = await check('spindle', again);
      assert.deepEqual(s.lines, n.lines, `${what}: the wasm reader disagrees with the native one`);
      stats.wasmChecks++;
      rmSync(again, { recursive: true });
    }
    rmSync(snap, { recursive: true });
    known = n.max;
  }
  // the live files too, recovered by the wasm build, then read natively
  const last = await check('spindle', dir);
  assert.equal(last.max, known);
  assert.deepEqual((await check('native', dir)).lines, last.lines);
  t.diagnostic(`${mode}: ${count} trials (seed ${seed}) in ${((performance.now() - t0) / 1000).toFixed(1)} s: kills ${JSON.stringify(stats.kills)}, ` +
    `${stats.commits} printed commits found, last commit ${known}, ${stats.leftover} kills left a journal or WAL, ` +
    `${stats.wasmChecks} wasm checks agreed, commits in the file but not printed: ${stats.printedBehind}; ` +
    `the writer printed "start" after ${median(stats.startTimes).toFixed(0)} ms (median)`);
}

describe(`SQLite killed at random moments on a host-directory mount (${trials} trials, seed ${seed})`, () => {
  it('rollback journal (journal_mode=DELETE): every returned commit is there, the database is whole', async (t) => {
    await runTrials(t, 'delete', trials / 2, prng(seed));
  });

  it('WAL (locking_mode=EXCLUSIVE): every returned commit is there, the database is whole', async (t) => {
    await runTrials(t, 'wal', trials / 2, prng(seed + 1));
  });

  it("SQLite's WASI build has no shared-memory WAL: journal_mode=WAL without exclusive locking stays delete", async () => {
    const dir = mkdtempSync(join(scratch, 'probe-'));
    const n = await exec(native, ['probe', join(dir, 'native.db')]);
    const s = await exec(process.execPath, [spindle, 'run', `--mount=/d=${dir}`, wasm, 'probe', '/d/wasm.db']);
    assert.equal(n.stdout, 'journal_mode=WAL gives wal\n', n.stderr);
    assert.equal(s.stdout, 'journal_mode=WAL gives delete\n', s.stderr);
  });
});
