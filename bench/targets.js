// What the bench holds its numbers against: each target is a ratio measured in one session (the
// series run interleaved), checked against a limit that comes from a reference figure (see
// docs/PERFORMANCE.md, "Reference figures and targets"). Ratios, not absolute times, so a target
// means the same on a fast or a slow machine; a loaded machine still bends the speed-ups (the
// report warns when the load was high).
import { hostTitle } from './hosts.js';
import { median } from './report/stats.js';

/**
 * One target. `measure(pick)` computes the ratio from the runs' numbers chosen by `pick(values)`:
 * the median of the runs gives the target's value, run i its i-th per-run value (interleaved:
 * run i of every series ran in the same round).
 */
export function target({ label, op, limit, context }, measure, runCount) {
  const value = measure(median);
  const perRun = Array.from({ length: runCount }, (_, i) => measure((values) => values[i])).filter(Number.isFinite);
  return { label, value, op, limit, met: op === '>=' ? value >= limit : value <= limit, perRun, context };
}

/** The verdict word of a target: met, NOT met, or why it was not judged (e.g. "needs 16 cores"). */
export const verdictWord = (t) => t.unjudged ?? (t.met ? 'met' : 'NOT met');

// The hosts that run wasm series, which the definitions below hold to their targets.
const wasmHosts = new Set(['node', 'browser', 'firefox', 'webkit']);

// The speed-up of series `id` at `threads` threads against its own 1-thread time.
const speedup = (ms, id, threads) => ms(id, 1) / ms(id, threads);
// The scaling targets hold on a 16-core machine (docs/PERFORMANCE.md, "16 cores"); with fewer
// cores they are measured and shown, but not judged.
const sixteen = 16;

// Per experiment id: the targets for one wasm host `h` (named `name`), each { label, op, limit, measure(ms) }
// where ms(seriesId, point) is the chosen time of that series at that point.
const definitions = {
  // A math loop scales in wasm as it does natively.
  math: (h, name) => [{
    label: `wasm in ${name}: 2-thread speed-up / native's`, op: '>=', limit: 0.9,
    measure: (ms) => (ms(`wasm@${h}`, 1) / ms(`wasm@${h}`, 2)) / (ms('native@native', 1) / ms('native@native', 2)),
  }],
  // A scalable malloc is faster than the locked dlmalloc on one thread (mimalloc 1.8x in the
  // reference figures) and its time falls as threads are added.
  'malloc-reference': (h, name) => [{
    label: `${name}: Spindle speed / dlmalloc speed, 1 thread`, op: '>=', limit: 1.8,
    measure: (ms) => ms(`dlmalloc@${h}`, 1) / ms(`spindle@${h}`, 1),
  }, {
    label: `${name}: Spindle 2-thread speed-up`, op: '>=', limit: 1.5, needsCores: 2,
    measure: (ms) => speedup(ms, `spindle@${h}`, 2),
  }, {
    label: `${name}: Spindle 16-thread speed-up`, op: '>=', limit: 10, needsCores: sixteen,
    measure: (ms) => speedup(ms, `spindle@${h}`, 16),
  }, {
    label: `${name}: Spindle speed / native glibc speed, slowest of 1-16 threads`, op: '>=', limit: 1, needsCores: sixteen,
    measure: (ms) => Math.min(...[1, 2, 4, 8, 16].map((t) => ms('native-glibc@native', t) / ms(`spindle@${h}`, t))),
  }, ...[[1, 1.8], [2, 1.6]].map(([threads, limit]) => ({
    // Under the npm WASI host (--full): the portable build's malloc against the plain build's
    label: `${name}, npm WASI host: Spindle portable speed / plain build (dlmalloc) speed, ${threads} thread(s)`,
    op: '>=', limit, measure: (ms) => ms(`npm-wasi-dlmalloc@${h}`, threads) / ms(`npm-wasi-portable@${h}`, threads),
  }))],
  // Threads on their own files share only the directory: they scale, and beat native tmpfs at 16.
  'fs-own-files': (h, name) => [{
    label: `${name}: Spindle FS 16-thread speed-up`, op: '>=', limit: 8, needsCores: sixteen,
    measure: (ms) => speedup(ms, `spindle-fs@${h}`, 16),
  }, {
    label: `${name}: Spindle FS speed / native tmpfs speed, 16 threads`, op: '>=', limit: 1, needsCores: sixteen,
    measure: (ms) => ms('native-tmpfs@native', 16) / ms(`spindle-fs@${h}`, 16),
  }],
  // Readers of a file no one writes write nothing shared (native tmpfs: 6x at 16 threads).
  'fs-shared-pread': (h, name) => [{
    label: `${name}: Spindle FS 16-thread speed-up`, op: '>=', limit: 10, needsCores: sixteen,
    measure: (ms) => speedup(ms, `spindle-fs@${h}`, 16),
  }],
  // Files in linear memory: 32x the JS filesystem from a worker, 2x on the main thread, and
  // about as fast on a worker as on the main thread (reference figures).
  'fs-stdio-files': (h, name) => [{
    label: `${name}: Spindle FS speed / JS FS speed, on a pthread`, op: '>=', limit: 32,
    measure: (ms) => ms(`js-fs@${h}`, 'thread') / ms(`spindle-fs@${h}`, 'thread'),
  }, {
    // On the main thread the JS FS makes no proxied calls, so this is the per-call cost alone.
    label: `${name}: Spindle FS speed / JS FS speed, on the main thread`, op: '>=', limit: 3,
    measure: (ms) => ms(`js-fs@${h}`, 'main') / ms(`spindle-fs@${h}`, 'main'),
  }, {
    label: `${name}: Spindle FS time on a pthread / on the main thread`, op: '<=', limit: 1.25,
    measure: (ms) => ms(`spindle-fs@${h}`, 'thread') / ms(`spindle-fs@${h}`, 'main'),
  }, {
    // Spindle makes no system calls, so one thread's file calls can come close to native's.
    label: `${name}: Spindle FS time / native tmpfs time, on the main thread`, op: '<=', limit: 1.5,
    measure: (ms) => ms(`spindle-fs@${h}`, 'main') / ms('native-tmpfs@native', 'main'),
  }, {
    // Under the npm WASI host (--full): the plain build's files are memfs calls proxied to the JS
    // main thread; the portable build's are Spindle FS in linear memory.
    label: `${name}, npm WASI host, C main on a worker: Spindle portable speed / plain build speed, on a pthread`,
    op: '>=', limit: 20,
    measure: (ms) => ms(`npm-wasi-worker@${h}`, 'thread') / ms(`npm-wasi-portable-worker@${h}`, 'thread'),
  }],
};

/**
 * The targets of one experiment of a results object (cli/bench/bench.js): those its suite measured
 * itself (`e.targets`) and those defined above, for every wasm host it ran on. A target whose
 * series or points did not run (filtered out, failed) is left out; one that needs more cores
 * than the machine had is shown with `unjudged` saying so, and is neither met nor NOT met.
 * `machine`: the results' machine, which names the browsers (bench/hosts.js).
 */
export function experimentTargets(e, cores, machine) {
  const define = definitions[e.id];
  if (!define) return e.targets ?? [];
  const byId = new Map(e.series.map((s) => [s.id, s]));
  const times = (id, point) => (byId.get(id)?.runs[point] ?? []).map((r) => r.ms).filter((v) => typeof v === 'number');
  const runCount = Math.max(0, ...e.series.flatMap((s) => Object.values(s.runs).map((r) => r.length)));
  const hosts = [...new Set(e.series.map((s) => s.host))].filter((h) => wasmHosts.has(h));
  const out = [...(e.targets ?? [])];
  for (const h of hosts) {
    for (const d of define(h, hostTitle(h, machine))) {
      const measure = (pick) => d.measure((id, point) => {
        const values = times(id, point);
        return values.length ? pick(values) : NaN;
      });
      const t = target(d, measure, runCount);
      if (d.needsCores && cores < d.needsCores) Object.assign(t, { met: null, unjudged: `needs ${d.needsCores} cores` });
      if (Number.isFinite(t.value)) out.push(t);
    }
  }
  return out;
}
