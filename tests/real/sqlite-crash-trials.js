// What the SQLite crash trials share (tests/sqlite-crash.test.js on a host-directory mount,
// tests/opfs-sqlite-crash.test.js on OPFS): the writer/checker tests/real/sqlite_crash.c built
// for wasm and Linux, the seeded PRNG and seed, the random moments a writer is ended at, and the
// reading of a `check` run's output.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { exec } from '../lib/exec.js';
import { buildProgram } from './build.js';
import { root } from './sources.js';

export const crashSource = join(root, 'tests', 'real', 'sqlite_crash.c');
/** The seed of this run: SPINDLE_CRASH_SEED=N repeats one. */
export const crashSeed = process.env.SPINDLE_CRASH_SEED ? Number(process.env.SPINDLE_CRASH_SEED) : Date.now() % 1000000;
/** The database and whichever of its journal, WAL and shm files exist. */
export const dbFiles = ['', '-journal', '-wal', '-shm'].map((s) => `test.db${s}`);

/** Resolves { wasm, native }: sqlite_crash.c linked against SQLite for each target. */
export async function buildCrashPrograms() {
  const [wasm, native] = await Promise.all([buildProgram('sqlite', { source: crashSource }),
    buildProgram('sqlite', { source: crashSource, target: 'native' })]);
  return { wasm, native };
}

// mulberry32: small, seedable, the same sequence on every Node
export function prng(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * When to end the next writer: { after: 'spawn', ms } from its start, aimed at its open, where it
 * recovers from the last trial (`startMs`: how long the last writer took to print "start"; the
 * first half goes to starting the module); { after: 'start', ms } anywhere in the stream of
 * commits; or { commits: k } right after its k-th "committed" line.
 */
export function planEnd(rand, startMs, { maxCommits = 60, maxMs = 250 } = {}) {
  const r = rand();
  if (r < 0.15) return { after: 'spawn', ms: Math.floor(startMs * (0.5 + 0.7 * rand())) };
  if (r < 0.6) return { after: 'start', ms: Math.floor(rand() * maxMs) };
  return { commits: 1 + Math.floor(rand() * maxCommits) };
}

/** Reads a `check` run's { code, stdout, stderr }: asserts it is whole and resolves { max, lines }. */
export function parseCheck(r, what) {
  const lines = r.stdout.split('\n').filter(Boolean);
  const m = /^check max (\d+) rows \d+ pages \d+$/.exec(lines.at(-1) ?? '');
  assert.ok(r.code === 0 && m && lines.slice(0, -1).every((l) => l === 'integrity ok'),
    `${what} (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  return { max: Number(m[1]), lines };
}

/** The Linux build's check of dir/test.db. */
export async function checkNative(native, dir) {
  return parseCheck(await exec(native, ['check', join(dir, 'test.db')]), `native check of ${dir}`);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
}
