// Real third-party programs in `spindle bench` (Node): the threaded SQLite workload and zstd's
// multithreaded round trip of tests/real/, built by tests/real/build.js (pinned sources fetched
// from crates.io), each run natively, with Spindle's defaults, with --malloc=dlmalloc and with
// --fs=js, the three also compiled lazily (`--compile=lazy`). Each runs its own interleaved suite:
// every run goes through all variants and points in turn, so load from other work spreads over
// all of them.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exec } from '../../tests/lib/exec.js';
import { codeMadeFor, spindleArgs } from '../spindle-command.js';
import { buildProgram, SQLITE_VFS, sqliteVfsFor } from '../../tests/real/build.js';

// Native runs keep their files on tmpfs, the fair "files in memory" reference.
const tmpfs = '/dev/shm';

// Spindle's hosts compile modules this big eagerly, every function before main (host/compile/compilation.js);
// each build also runs with `--compile=lazy` (`-lazy`), where functions compile when first called,
// inside the measured work (the programs' clocks start after instantiation; docs/PORTING.md).
const wasmBuilds = [
  { id: 'spindle', label: 'Spindle defaults', ccFlags: [] },
  { id: 'dlmalloc', label: 'Spindle, --malloc=dlmalloc', ccFlags: ['--malloc=dlmalloc'] },
  { id: 'js-fs', label: 'Spindle, --fs=js', ccFlags: ['--fs=js'] },
];
const variants = [
  { id: 'native', label: 'native (clang -O2, glibc, tmpfs)', target: 'native' },
  ...wasmBuilds,
  ...wasmBuilds.map((b) => ({ ...b, id: `${b.id}-lazy`, label: `${b.label}, --compile=lazy`, build: b.id,
    runFlags: ['--compile=lazy'] })),
];

function result(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no RESULT line in output:\n${stdout.slice(-500)}`);
  return JSON.parse(line.slice('RESULT '.length));
}

// The program's RESULT, plus `processMs`: the whole process from spawn to exit (Spindle's
// includes Node's start, compilation and instantiation, which the program's own clock leaves out).
async function runVariant(v, binary, args) {
  const started = performance.now();
  const r = v.target === 'native'
    ? await exec(binary, args, { timeoutMs: 600000 })
    : await exec(process.execPath, spindleArgs('run', '--wait-for-pool', ...(v.runFlags ?? []), binary, ...args), { timeoutMs: 600000 });
  const processMs = performance.now() - started;
  if (r.code !== 0) throw new Error(`${v.label}: exit ${r.code}: ${r.stderr.slice(-1000)}`);
  return { ...result(r.stdout), processMs };
}

/**
 * Builds `key` for every variant, then `runs` times runs every variant at every point:
 * `args(variant, point)` gives the program's arguments, `measure(result)` the { point: ms }
 * values of one run. Returns { runs, all } in the shapes cli/bench/bench.js and `target` want.
 */
async function interleaved({ key, points, runs, progress, args, measure }) {
  const binaries = {};
  for (const v of variants) {
    progress(`building ${key} / ${v.id}`);
    binaries[v.id] = await buildProgram(key, { target: v.target ?? 'wasm', ccFlags: v.ccFlags, id: v.build ?? v.id });
    if (v.target !== 'native') await codeMadeFor(binaries[v.id]);
  }
  const out = Object.fromEntries(variants.map((v) => [v.id, Object.fromEntries(points.flatMap((p) => measure.points(p).map((m) => [m, []])))]));
  const all = [];
  for (let i = 0; i < runs; i++) {
    for (const p of points) {
      const run = {};
      for (const v of variants) {
        progress(`run ${i + 1}/${runs}, ${p.label}, ${v.id}`);
        const values = measure.values(p, await runVariant(v, binaries[v.id], args(v, p)));
        for (const [m, ms] of Object.entries(values)) out[v.id][m].push({ ms });
        run[v.id] = values;
      }
      all.push(run);
    }
  }
  return { runs: out, all };
}

// One run's time of series `a` over series `b` at 4 threads.
const ratio = (a, b) => (run) => run[a]['4 threads'] / run[b]['4 threads'];

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * A target in the shape cli/bench/bench.js prints: `ratio(run)` over runs [{ series: { point: ms } }];
 * the value is the ratio of the series' median times, as the table shows, plus every run's own.
 */
function target(label, runs, ratioOf, op, limit) {
  const medians = Object.fromEntries(Object.keys(runs[0]).map((series) => [series,
    Object.fromEntries(Object.keys(runs[0][series]).map((p) => [p, median(runs.map((r) => r[series][p]))]))]));
  const value = ratioOf(medians);
  return { label, value, op, limit, met: op === '>=' ? value >= limit : value <= limit, perRun: runs.map(ratioOf) };
}

export function realExperiments({ quick }) {
  const rows = quick ? 2000 : 20000;
  const mib = quick ? 8 : 64;
  const sqlitePoints = [{ label: '1 thread', threads: 1 }, { label: '4 threads', threads: 4 }];
  // Each run gives the program's own time (from its threads' start to the integrity check) and,
  // as a second column, the process's (start-up and compilation included).
  const wholeProcess = (label) => `${label}, whole process`;
  const zstdPoints = [{ label: '4 workers', workers: 4 }];
  return [
    {
      id: 'real-sqlite', title: `SQLite 3.54: threads with their own connections insert ${rows} rows each into one database, querying as they go`,
      chart: 'cases', host: 'node', baseline: 'native', source: 'tests/real/sqlite_threads.c',
      points: [...sqlitePoints.map((p) => p.label), ...sqlitePoints.map((p) => wholeProcess(p.label))], speedupOf: {}, variants: variants.map(({ id, label }) => ({ id, label })),
      note: `tests/real/sqlite_threads.c with SQLITE_THREADSAFE=1, VFS ${SQLITE_VFS} (--fs=js: unix-dotfile, it has no record locks), batches of 500 rows per ` +
        'transaction (BEGIN IMMEDIATE), a count/sum query after each, then integrity_check. Native: database on tmpfs; ' +
        'Spindle: in the in-memory filesystem (--fs=js: in JS on the main thread). Times are the program\'s own clock; ' +
        'the "whole process" cases time the process from spawn to exit (Spindle: Node\'s start, compilation and instantiation included).',
      async suite({ runs, progress }) {
        const nativeDir = join(tmpfs, `spindle-bench-sqlite-${process.pid}`);
        mkdirSync(nativeDir, { recursive: true });
        try {
          const r = await interleaved({
            key: 'sqlite', points: sqlitePoints, runs, progress,
            args: (v, p) => [v.target === 'native' ? join(nativeDir, 'bench.db') : '/tmp/bench.db', p.threads, rows, sqliteVfsFor(v.ccFlags ?? [])].map(String),
            measure: {
              points: (p) => [p.label, wholeProcess(p.label)],
              values: (p, res) => ({ [p.label]: res.ms, [wholeProcess(p.label)]: res.processMs }),
            },
          });
          const four = r.all.filter((run) => '4 threads' in run.native);
          return {
            runs: r.runs, info: { rows },
            targets: [
              target('4 threads: Spindle time / native time', four, ratio('spindle', 'native'), '<=', 1.8),
              target('4 threads: --fs=js time / Spindle time', four, ratio('js-fs', 'spindle'), '>=', 1.0),
              target('4 threads: dlmalloc time / Spindle time', four, ratio('dlmalloc', 'spindle'), '>=', 1.0),
            ],
          };
        } finally {
          rmSync(nativeDir, { recursive: true, force: true });
        }
      },
    },
    {
      id: 'real-zstd', title: `zstd 1.5.7: compress ${mib} MiB of generated text with 4 worker threads (level 3), then decompress`,
      chart: 'cases', host: 'node', baseline: 'native', source: 'tests/real/zstd_roundtrip.c',
      points: ['compress', 'decompress'], speedupOf: {}, variants: variants.map(({ id, label }) => ({ id, label })),
      note: 'tests/real/zstd_roundtrip.c built with ZSTD_MULTITHREAD: ZSTD_compress2 with ZSTD_c_nbWorkers=4, then ' +
        'ZSTD_decompress (one thread: zstd has no multithreaded decompression); the frame is written to a file ' +
        '(native: tmpfs). Every build writes the same frame.',
      async suite({ runs, progress }) {
        const r = await interleaved({
          key: 'zstd', points: zstdPoints, runs, progress,
          args: (v, p) => [`gen:${mib << 20}`, v.target === 'native' ? join(tmpfs, `spindle-bench-${process.pid}.zst`) : '/tmp/out.zst', p.workers, 3].map(String),
          measure: { points: () => ['compress', 'decompress'], values: (p, res) => ({ compress: res.compressMs, decompress: res.decompressMs }) },
        });
        rmSync(join(tmpfs, `spindle-bench-${process.pid}.zst`), { force: true });
        return { runs: r.runs, info: { mib } };
      },
    },
  ];
}
