// Path calls on a host-directory mount against the same C program run natively on the same
// directory (docs/MOUNTS.md section 6): bench/io/mount_calls.c built twice, with clang for Linux
// and with `spindle cc`, run interleaved (native, Spindle, native, ...) in a fresh directory
// under the OS temp directory: `stat` of a file two levels deep, open + 4 KiB read + close, a
// 1 KiB write appended to a fresh file, and a readdir + stat walk of 2,000 files in 20
// directories.
//
//   node bench/io/mount-calls.js [--runs=5] [--node-fs-too]
//     prints RUN lines, the medians and the targets; --node-fs-too also runs Spindle with
//     SPINDLE_MOUNT_ADDON=0 (the backend's node:fs path, docs/MOUNTS.md "The native addon"),
//     interleaved with the addon's runs, the two alternating first
//
// From code (bench/io/suites.js, experiment io-mount-calls): `await mountCallsBench({ runs })`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../report/stats.js';
import { spindleArgs } from '../spindle-command.js';

const root = join(import.meta.dirname, '..', '..');
const source = join(root, 'bench', 'io', 'mount_calls.c');

/** The cases: the program's RESULT key and its point in the report, whose ms is the key's value
 * (us per call = ms per 1,000 calls). */
export const callCases = [
  { key: 'stat_us', point: 'stat x 1,000' },
  { key: 'orc_us', point: 'open+read+close x 1,000' },
  { key: 'write_us', point: '1 KiB write x 1,000' },
  { key: 'walk_ms', point: 'walk of 2,000 files' },
];

// The whole run of each side, spawn to exit (the program makes its tree and times each case).
export const wallCase = { key: 'wall_ms', point: 'whole process, spawn to exit' };

// The targets: Spindle's time / native time on the same directory (every call written through
// to the host, as Linux does: docs/MOUNTS.md "Durability").
export const callTargets = { stat_us: 3, orc_us: 3, write_us: 3, walk_ms: 3 };

function must(r, what) {
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stdout?.slice(-500)}\n${r.stderr?.slice(-500)}`);
  return r;
}

/** Builds mount_calls.c natively and for wasm into outDir: { native, wasm }. */
export function buildMountCalls(outDir = join(root, 'build', 'bench', 'io')) {
  mkdirSync(outDir, { recursive: true });
  const native = join(outDir, 'mount_calls.native');
  const wasm = join(outDir, 'mount_calls.wasm');
  must(spawnSync('clang-22', ['-O2', source, '-o', native], { encoding: 'utf8' }), 'clang mount_calls.c');
  must(spawnSync(join(root, 'bin', 'spindle'), ['cc', '-O2', source, '-o', wasm], { encoding: 'utf8' }), 'spindle cc mount_calls.c');
  return { native, wasm };
}

const resultOf = (r) => JSON.parse(r.stdout.split('\n').find((l) => l.startsWith('RESULT ')).slice('RESULT '.length));

/** One run of `cmd`: its RESULT object, with wall_ms, its time from spawn to exit. */
function timedRun(cmd, args, options, what) {
  const started = performance.now();
  const r = must(spawnSync(cmd, args, { encoding: 'utf8', ...options }), what);
  return { ...resultOf(r), wall_ms: performance.now() - started };
}

// one run of the program on a mount of dir, with the process environment plus `env`
const onMount = (wasm, dir, env = {}) => timedRun(process.execPath, spindleArgs('run', `--mount=/data=${dir}`, wasm, '/data'),
  { env: { ...process.env, ...env } }, 'mount_calls on a mount');

/** One run of each side on `dir`: { native, spindle[, nodeFs] } (RESULT objects); nodeFs (the
 * backend without its addon) when asked, before or after the addon's run by `nodeFsFirst`. */
export function measureMountCalls({ native, wasm }, dir, { nodeFs = false, nodeFsFirst = false } = {}) {
  const r = { native: timedRun(native, [dir], {}, 'mount_calls natively') };
  const withoutAddon = () => { if (nodeFs) r.nodeFs = onMount(wasm, dir, { SPINDLE_MOUNT_ADDON: '0' }); };
  if (nodeFsFirst) withoutAddon();
  r.spindle = onMount(wasm, dir);
  if (!nodeFsFirst) withoutAddon();
  return r;
}

/** runs interleaved rounds; { runs: [{ native, spindle }], native, spindle (medians), ratios }. */
export function mountCallsBench({ runs = 5, parent = tmpdir(), built = null, onRun = () => {}, nodeFs = false } = {}) {
  built ??= buildMountCalls();
  const dir = mkdtempSync(join(parent, 'spindle-mount-calls-'));
  try {
    const all = [];
    for (let i = 0; i < runs; i++) {
      onRun(i);
      all.push(measureMountCalls(built, dir, { nodeFs, nodeFsFirst: i % 2 === 0 }));
    }
    const med = (side) => Object.fromEntries([...callCases, wallCase].map((c) => [c.key, median(all.map((r) => r[side][c.key]))]));
    const native = med('native');
    const spindle = med('spindle');
    const ratios = Object.fromEntries(callCases.map((c) => [c.key, spindle[c.key] / native[c.key]]));
    return { runs: all, native, spindle, ratios, dir, ...(nodeFs && { nodeFs: med('nodeFs') }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runsArg = process.argv.find((x) => x.startsWith('--runs='));
  const r = mountCallsBench({ runs: runsArg ? Number(runsArg.slice(7)) : 5, nodeFs: process.argv.includes('--node-fs-too') });
  for (const run of r.runs) console.log(`RUN ${JSON.stringify(run)}`);
  for (const c of callCases) {
    const ratio = r.ratios[c.key];
    console.log(`${c.key}: native ${r.native[c.key].toFixed(2)}, Spindle ${r.spindle[c.key].toFixed(2)}: ${ratio.toFixed(2)}x ` +
      `(target <= ${callTargets[c.key]}x: ${ratio <= callTargets[c.key] ? 'met' : 'NOT met'})` +
      (r.nodeFs ? `; without the addon ${r.nodeFs[c.key].toFixed(2)}: ${(r.nodeFs[c.key] / r.native[c.key]).toFixed(2)}x` : ''));
  }
}
