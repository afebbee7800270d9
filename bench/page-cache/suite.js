// The page's cached code (docs/HOST.md, "Cached code in pages"): the own-files workload
// (bench/fs/own_files.c) as a user runs it, `spindle run` in Node against `spindle run
// --browser` (Chromium), whose page compiles lazily with Liftoff on a module's first run and
// gets the TurboFan code V8 cached then on the next. Each round, per point: Node (its code
// cached by an earlier run), the page's first run (an empty per-user cache), its second and
// third runs (the same cache, which each run adds to), and a run with --code-cache=off. Every
// run is a new `spindle run` process; its own time (the program's RESULT) and its wall time
// (spawn to exit) are kept, and as evidence that the second run had code to load, how many
// entries the wasm code cache held after the first. Its own interleaved suite, on the Chromium
// host (`--browser`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spindleArgs } from '../spindle-command.js';
import { makersDone } from '../../cli/common/turbofan-maker.js';
import { exec } from '../../tests/lib/exec.js';
import { target } from '../targets.js';

const root = join(import.meta.dirname, '..', '..');
const source = 'bench/fs/own_files.c';
const points = [{ label: '1 thread', args: ['1'] }, { label: '2 threads', args: ['2'] }];
const variants = [
  { id: 'node', label: 'spindle run (Node; its code cached by an earlier run)' },
  { id: 'page-first', label: 'spindle run --browser, the module\'s first run (empty page cache)' },
  { id: 'page-second', label: 'spindle run --browser, its second run (code cached by the first)' },
  { id: 'page-third', label: 'spindle run --browser, its third run (and by the second)' },
  { id: 'page-off', label: 'spindle run --browser --code-cache=off' },
];

/** The entry files of the wasm code cache that a page cache directory keeps (cli/browser/chromium-code-cache.js). */
export function keptCodeEntries(cacheDir) {
  try {
    return readdirSync(join(cacheDir, 'chromium-profile', 'saved', 'Default', 'Code Cache', 'wasm')).filter((n) => /^[0-9a-f]{16}_\d$/.test(n)).length;
  } catch {
    return 0;
  }
}

/** One `spindle run` of own_files; { ms (its own time), with_start_ms (and its threads' start), wall_ms }. */
async function runOne(wasm, point, runFlags, env) {
  const started = performance.now();
  const r = await exec(process.execPath, spindleArgs('run', ...runFlags, wasm, ...point.args), { env });
  const wall = performance.now() - started;
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.code !== 0 || !line) throw new Error(`spindle run ${runFlags.join(' ')}: exit ${r.code}: ${r.stderr.slice(-500)}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  return { ms: result.seconds * 1000, with_start_ms: result.with_thread_start_s * 1000, wall_ms: wall };
}

export function pageCacheExperiments({ quick }) {
  return [{
    id: 'fs-own-files-page-cache', host: 'browser', chart: 'cases', baseline: 'node', source,
    title: 'Own-files workload in a page: its first run, and its second with the code Chromium cached, against Node',
    points: points.map((p) => p.label), speedupOf: {}, variants,
    note: 'bench/fs/own_files.c (200 x 64 KiB files, 1 KiB calls), each run a new process as a user starts it. Node: ' +
      '`spindle run` with default options (eager TurboFan code from its own cache). Chromium: `spindle run --browser`, ' +
      'whose page compiles the module with WebAssembly.compileStreaming from a stable URL (lazily, Liftoff first); ' +
      'the first run starts from an empty per-user page cache, the second from what the first left in it (the HTTP ' +
      'and wasm code caches of the profile, cli/browser/chromium-code-cache.js), the third from what both left; ' +
      '--code-cache=off keeps nothing. ms: the ' +
      'program\'s own time; with_start_ms (the same with its threads\' start) and wall_ms in results.json. info.cachedEntries: the wasm code cache\'s entries after each first run.',
    estimateS: ({ runs }) => (quick ? 1 : Math.max(5, runs)) * points.length * 12,
    async suite({ runs, buildDir, progress }) {
      progress('building');
      mkdirSync(buildDir, { recursive: true });
      const wasm = join(buildDir, 'own_files.wasm');
      const cc = spawnSync(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, source), '-o', wasm], { encoding: 'utf8' });
      if (cc.status !== 0) throw new Error(`spindle cc ${source} failed:\n${cc.stderr}`);
      // as a user runs them: the bench's own choice of Node's compilers stays out
      const env = { ...process.env };
      delete env.SPINDLE_WASM_TIERS;
      delete env.SPINDLE_CODE_CACHE;
      const scratch = mkdtempSync(join(tmpdir(), 'spindle-page-cache-'));
      const nodeCache = join(scratch, 'node');
      const rounds = quick ? 1 : Math.max(5, runs); // ~10 ms own times, noisy: more rounds
      const out = Object.fromEntries(variants.map((v) => [v.id, Object.fromEntries(points.map((p) => [p.label, []]))]));
      const cachedEntries = Object.fromEntries(points.map((p) => [p.label, []]));
      try {
        for (const p of points) await runOne(wasm, p, [`--code-cache=${nodeCache}`], env); // Node's earlier run
        await makersDone(nodeCache); // (the TurboFan code it has made for the later runs)
        for (let round = 0; round < rounds; round++) {
          for (const p of points) {
            const pageCache = join(scratch, `page-${round}-${p.args[0]}`);
            const flags = {
              node: [`--code-cache=${nodeCache}`],
              'page-first': ['--browser', `--code-cache=${pageCache}`],
              'page-second': ['--browser', `--code-cache=${pageCache}`],
              'page-third': ['--browser', `--code-cache=${pageCache}`],
              'page-off': ['--browser', '--code-cache=off'],
            };
            for (const v of variants) {
              progress(`run ${round + 1}/${rounds}, ${p.label}, ${v.id}`);
              out[v.id][p.label].push(await runOne(wasm, p, flags[v.id], env));
              if (v.id === 'page-first') cachedEntries[p.label].push(keptCodeEntries(pageCache));
            }
          }
        }
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      // the work alone, and the work with its threads' start (a worker each in both hosts)
      const overNode = (point, series, limit, key, what) => target({ label: `${point}: page's ${series === 'page-second' ? 'second' : 'first'} run's ${what} / Node's`, op: '<=', limit },
        (pick) => pick(out[series][point].map((r) => r[key])) / pick(out.node[point].map((r) => r[key])), rounds);
      return {
        runs: out,
        info: { rounds, cachedEntries },
        targets: points.flatMap((p) => [overNode(p.label, 'page-second', 1.2, 'ms', 'own time'),
          overNode(p.label, 'page-second', 1.2, 'with_start_ms', 'own time with the threads\' start')]),
      };
    },
  }];
}
