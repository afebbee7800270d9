// The file I/O experiments of `spindle bench`: Spindle's mounts against the raw ceilings measured
// in the same run. Each runs its own interleaved suite (cli/bench/bench.js calls `suite`), not the
// per-program job loop: io-hostdir (Node: Spindle on a host-directory mount vs node:fs,
// bench/io/hostdir.js), io-mount-calls (Node: path calls on a mount vs the same C natively,
// bench/io/mount-calls.js) and io-opfs (Chromium: Spindle on an OPFS mount vs raw
// FileSystemSyncAccessHandle, bench/opfs/spindle-opfs.js); io-hostdir and io-opfs run bench/opfs/opfs_io.c.
//
// The report is in ms (lower is better), so each case is the time to move a fixed amount,
// computed from the measured throughput: 64 MiB for the sequential cases, 100 files for the small
// files, 1 GiB read for the reader cases (so 1 thread's ms / 2 threads' ms is the 2-thread
// speed-up). Every run also keeps the raw MiB/s (or files/s) it came from.

import { median } from '../report/stats.js';
import { buildMountCalls, callCases, callTargets, mountCallsBench, wallCase } from './mount-calls.js';
import { target } from '../targets.js';
import { codeMadeFor } from '../spindle-command.js';

const cases = [
  { key: 'seq_write_4k', point: 'write 4K', per: 64, unit: 'MiB' },
  { key: 'seq_read_4k', point: 'read 4K', per: 64, unit: 'MiB' },
  { key: 'seq_write_1m', point: 'write 1M', per: 64, unit: 'MiB' },
  { key: 'seq_read_1m', point: 'read 1M', per: 64, unit: 'MiB' },
  { key: 'small_files', point: 'small files', per: 100, unit: 'files' },
  { key: 'read_1thread', point: 'read 1 thread', per: 1024, unit: 'MiB' },
  { key: 'read_2threads', point: 'read 2 threads', per: 1024, unit: 'MiB' },
];
const pointOf = Object.fromEntries(cases.map((c) => [c.key, c.point]));

const caseNote = (mib) => `Cases, from bench/opfs/opfs_io.c: "write 4K"/"write 1M": ${mib} MiB written in 4 KiB or 1 MiB ` +
  'calls, then fsync and close; "read 4K"/"read 1M": that file read 4 times over in 4 KiB or 1 MiB calls; ' +
  '"small files": 1000 x (create, 1 KiB write, close); "read 1 thread": one thread reads its ' +
  `${mib} MiB file ${Math.max(1, Math.floor(1024 / mib))} times in 1 MiB calls; "read 2 threads": two threads each read ` +
  'their own file so, started together. Times are ms per 64 MiB (sequential), per 100 files, per 1 GiB ' +
  '(readers; 1 thread / 2 threads = the 2-thread speed-up), from the measured MiB/s and files/s.';

/** One run's { key: MiB/s or files/s } as { point: { ms, rate } }. */
function toPoints(result) {
  const out = {};
  for (const c of cases) {
    const rate = result[c.key];
    out[c.point] = { ms: (c.per / rate) * 1000, rate, rateUnit: c.unit === 'MiB' ? 'MiB/s' : 'files/s' };
  }
  return out;
}

/** Series runs { variantId: { point: [run, ...] } } from per-run results [{ [side]: result }]. */
function collectRuns(all, sides) {
  const runs = {};
  for (const [side, id] of Object.entries(sides)) {
    runs[id] = Object.fromEntries(cases.map((c) => [c.point, []]));
    for (const r of all) for (const [p, v] of Object.entries(toPoints(r[side]))) runs[id][p].push(v);
  }
  return runs;
}

/** A target on the runs [{ side: { key: value } }]: `ratio(run)` of one run's numbers; the value
 * is that ratio of each number's median over the runs (as the table shows). */
function sidesTarget(label, all, ratio, op, limit, context) {
  const pickRun = (pick) => Object.fromEntries(Object.keys(all[0]).map((side) => [side,
    Object.fromEntries(Object.keys(all[0][side]).map((k) => [k, pick(all.map((r) => r[side][k]))]))]));
  return target({ label, op, limit, context }, (pick) => ratio(pickRun(pick)), all.length);
}

// The OPFS metadata cases (bench/opfs/opfs-meta.js) and their WasmFS reference figures.
const metaCases = [
  { key: 'stat_ms', point: 'stat' },
  { key: 'unlink_ms', point: 'unlink' },
  { key: 'read_64x1m_rdwr_ms', point: 'read 64 x 1M, O_RDWR' },
  { key: 'read_64x1m_rdonly_ms', point: 'read 64 x 1M, O_RDONLY' },
];

export function ioExperiments({ quick }) {
  const mib = quick ? 8 : 64;
  const metaFiles = quick ? 100 : 200;
  return [
    {
      id: 'io-mount-calls', key: true, estimateS: ({ runs }) => 5 + runs * 4, title: 'Path calls on a host-directory mount vs the same C natively',
      chart: 'cases', source: 'bench/io/mount_calls.c', host: 'node', baseline: 'native', points: [...callCases, wallCase].map((c) => c.point),
      variants: [{ id: 'native', label: 'native (clang)' }, { id: 'spindle-hostdir', label: 'Spindle on a host dir' }],
      speedupOf: {}, // the cases are different calls: no speed-up between them
      note: 'Interleaved runs of bench/io/mount_calls.c built with clang and with spindle cc, on the same fresh directory ' +
        'under the OS temp directory (`spindle run --mount=/data=DIR`): stat of a file two levels deep and open + 4 KiB ' +
        'read + close of it (ms per 1,000 calls), a readdir + stat walk of 2,000 files in 20 directories (best of 5), ' +
        'and each side\'s whole process from spawn to exit (`spindle run` with default options, native).',
      async suite({ runs, buildDir, progress }) {
        const built = buildMountCalls(buildDir);
        await codeMadeFor(built.wasm);
        const r = mountCallsBench({ runs, built, onRun: (i) => progress(`run ${i + 1}/${runs}`) });
        const side = (name) => Object.fromEntries([...callCases, wallCase].map((c) => [c.point, r.runs.map((run) => ({ ms: run[name][c.key] }))]));
        return {
          runs: { native: side('native'), 'spindle-hostdir': side('spindle') },
          targets: callCases.map((c) => sidesTarget(`${c.point}: Spindle time / native time`, r.runs,
            (run) => run.spindle[c.key] / run.native[c.key], '<=', callTargets[c.key])),
        };
      },
    },
    {
      id: 'io-hostdir', key: true, estimateS: ({ runs }) => 2 + runs * (quick ? 3 : 5), title: `File I/O: Spindle on a host-directory mount vs node:fs (${mib} MiB files)`, chart: 'cases',
      source: 'bench/opfs/opfs_io.c', host: 'node', baseline: 'node-fs', points: cases.map((c) => c.point),
      speedupOf: { [pointOf.read_2threads]: pointOf.read_1thread },
      variants: [{ id: 'node-fs', label: 'node:fs' }, { id: 'spindle-hostdir', label: 'Spindle on a host dir' }],
      note: `Interleaved runs: node:fs (synchronous calls from JS; the two readers on two worker_threads), then ` +
        `\`spindle run --mount=/data=DIR\` of opfs_io.c; DIR is a fresh directory under the OS temp directory, removed after. ${caseNote(mib)}`,
      async suite({ runs, buildDir, progress }) {
        const { buildIoBench, hostdirBench } = await import('./hostdir.js');
        const wasm = buildIoBench(buildDir);
        await codeMadeFor(wasm);
        const r = await hostdirBench({ runs, mib, wasm, onRun: (i, side) => progress(`run ${i + 1}/${runs}, ${side}`) });
        const time = (k) => (run) => run.node[k] / run.spindle[k]; // Spindle's time / node:fs's time
        return {
          runs: collectRuns(r.runs, { node: 'node-fs', spindle: 'spindle-hostdir' }),
          info: { dir: r.dir, mib },
          targets: [
            sidesTarget('1 MiB sequential writes: Spindle time / node:fs time', r.runs, time('seq_write_1m'), '<=', 1.5),
            sidesTarget('1 MiB sequential reads: Spindle time / node:fs time', r.runs, time('seq_read_1m'), '<=', 1.5),
          ],
        };
      },
    },
    {
      id: 'io-opfs-meta', key: true, estimateS: ({ runs }) => 5 + runs * 4, title: 'OPFS metadata calls and opens: Spindle on an OPFS mount vs WasmFS\'s figures (Chromium)',
      chart: 'cases', source: 'bench/opfs/opfs_io.c', host: 'browser', baseline: 'spindle-opfs', points: metaCases.map((c) => c.point),
      speedupOf: {}, // different calls: no speed-up between them
      variants: [{ id: 'spindle-opfs', label: 'Spindle on OPFS' }],
      note: `\`spindle run --browser[=firefox] --mount /data=opfs:spindle-meta opfs_io.wasm meta /data ${metaFiles}\` (bench/opfs/opfs-meta.js), ` +
        `each run in a fresh Chromium (host 'browser', as io-opfs): "stat"/"unlink": ms per call on ${metaFiles} files of 1 KiB the program created; "read 64 x 1M": ` +
        'ms to open 64 files of 1 MiB (O_RDWR or O_RDONLY), read each in 1 MiB calls and close it. Targets: Emscripten ' +
        '4.0.23 WasmFS\'s OPFS backend on the same calls in Chromium 156 (issue 20): stat 0.44 ms, unlink 0.51 ms, O_RDWR reads 173 ms.',
      async suite({ runs, progress }) {
        const { opfsMetaBench, wasmfsFigures } = await import('../opfs/opfs-meta.js');
        const r = opfsMetaBench({ runs, count: metaFiles, browser: 'chromium', onRun: (i) => progress(`run ${i + 1}/${runs}`) });
        const mine = r.runs.map((run) => Object.values(run)[0]);
        const series = Object.fromEntries(metaCases.map((c) => [c.point, mine.map((x) => ({ ms: x[c.key] }))]));
        // Spindle's time / WasmFS's figure (a fixed reference, measured once on this machine)
        const against = (c, label) => target({ label: `${label}: Spindle time / WasmFS's ${wasmfsFigures[c]} ms`, op: '<=', limit: 1 },
          (pick) => pick(mine.map((x) => x[c])) / wasmfsFigures[c], mine.length);
        return {
          runs: { 'spindle-opfs': series },
          targets: [
            against('stat_ms', 'stat of a small file'),
            against('unlink_ms', 'unlink of a small file'),
            against('read_64x1m_rdwr_ms', '64 x 1 MiB files opened O_RDWR, read fully'),
          ],
        };
      },
    },
    {
      id: 'io-opfs', key: true, estimateS: ({ runs }) => 10 + runs * (quick ? 3 : 8), title: `File I/O: Spindle on an OPFS mount vs raw OPFS sync access handles (${mib} MiB files)`, chart: 'cases',
      source: 'bench/opfs/opfs_io.c', host: 'browser', baseline: 'raw-opfs', points: cases.map((c) => c.point),
      speedupOf: { [pointOf.read_2threads]: pointOf.read_1thread },
      variants: [{ id: 'raw-opfs', label: 'raw OPFS' }, { id: 'spindle-opfs', label: 'Spindle on OPFS' }],
      note: 'Interleaved runs in one persistent-profile headless Chromium page: raw OPFS (FileSystemSyncAccessHandle calls in ' +
        'dedicated workers, bench/opfs/raw-opfs-worker.js), then opfs_io.c with /data = opfs:spindle-bench ' +
        `(bench/opfs/spindle-opfs.js). ${caseNote(mib)}`,
      async suite({ runs, progress }) {
        const { spindleOpfsBench } = await import('../opfs/spindle-opfs.js');
        const r = await spindleOpfsBench({ runs, mib, onRun: (i) => progress(`run ${i + 1}/${runs}`) });
        const speed = (k) => (run) => run.spindle[k] / run.raw[k]; // Spindle's speed / raw's
        const rawSpeedup = median(r.runs.map((x) => x.raw.read_2threads_speedup));
        return {
          runs: collectRuns(r.runs, { raw: 'raw-opfs', spindle: 'spindle-opfs' }),
          info: { mib },
          targets: [
            sidesTarget('1 MiB sequential writes: Spindle speed / raw OPFS speed', r.runs, speed('seq_write_1m'), '>=', 0.8),
            sidesTarget('1 MiB sequential reads: Spindle speed / raw OPFS speed', r.runs, speed('seq_read_1m'), '>=', 0.8,
              'why it can miss: each request also pays one hand-off to the OPFS I/O worker (an Atomics wake-up of ' +
              '~45 us beside the ~55 us read); read-ahead would hide it (docs/PERFORMANCE.md)'),
            sidesTarget('4 KiB sequential writes: Spindle speed / raw OPFS speed', r.runs, speed('seq_write_4k'), '>=', 2,
              'set when small writes were coalesced in linear memory; since every write goes through before it returns ' +
              '(so a closed page loses nothing: docs/MOUNTS.md, "Durability"), each 4 KiB write is one hand-off to the I/O ' +
              'worker beside raw\'s own write, ~0.4x raw on two cores (docs/OPFS.md, third run)'),
            sidesTarget('2 threads reading 2 files: Spindle 2 threads / 1 thread', r.runs,
              (run) => run.spindle.read_2threads / run.spindle.read_1thread, '>=', 1.6,
              `raw OPFS in the same runs: ${rawSpeedup.toFixed(2)}x; the per-request hand-off to the I/O workers, ` +
              'paid by two threads on two cores, costs the rest (docs/PERFORMANCE.md)'),
          ],
        };
      },
    },
  ];
}
