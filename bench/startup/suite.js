// The start-up experiment of `spindle bench` (issue 20): the whole process's wall time, from
// spawn to exit, of a hello world without threads and of one whose pthread writes a file, as a
// user runs them: `spindle run` with default options, the same C built natively by the system
// clang, and `node -e ""` (Node's own start, the floor of any Node host). Its own interleaved
// suite, so every round runs each variant at each point in turn.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_NODE_FLAGS } from '../../cli/v8-start.js';
import { clang } from '../../cli/toolchain.js';
import { exec } from '../../tests/lib/exec.js';
import { target } from '../targets.js';

const root = join(import.meta.dirname, '..', '..');
const tmpfs = '/dev/shm';

const points = [
  { label: 'hello world', source: 'hello.c' },
  { label: 'one pthread writes a file', source: 'hello_thread.c' },
];
const variants = [
  { id: 'spindle', label: 'spindle run (default options; code cached by an earlier run)' },
  { id: 'spindle-first', label: 'spindle run, first run of the module (empty code cache)' },
  { id: 'native', label: 'native (clang -O2)' },
  { id: 'node', label: 'node -e ""' },
];

function build(compiler, args) {
  const r = spawnSync(compiler, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${compiler} ${args.join(' ')} failed:\n${r.stderr}`);
}

/** Each point's program as { spindle, native } paths, built into `dir`. */
function buildPrograms(dir) {
  mkdirSync(dir, { recursive: true });
  return points.map((p) => {
    const source = join(root, 'bench', 'startup', p.source);
    const base = join(dir, p.source.replace(/\.c$/, ''));
    build(join(root, 'bin', 'spindle'), ['cc', '-O2', source, '-o', `${base}.wasm`]);
    build(clang, ['-O2', '-pthread', source, '-o', base]);
    return { spindle: `${base}.wasm`, native: base };
  });
}

/** Milliseconds from spawn to exit of one run of `variant` at point `i`; `cache` is the code cache's directory. */
async function timeOne(variant, programs, i, cache) {
  const nativeFile = join(tmpfs, `spindle-startup-${process.pid}.txt`);
  const spindleRun = (cacheDir) => [process.execPath,
    // as bin/spindle starts Node (its main thread then runs the C main)
    [...CLI_NODE_FLAGS, join(root, 'bin', 'spindle'), 'run', `--code-cache=${cacheDir}`, programs[i].spindle]];
  const fresh = join(cache, `first-${variant.id}-${i}-${performance.now()}`);
  const [cmd, args] = {
    spindle: spindleRun(join(cache, 'kept')),
    'spindle-first': spindleRun(fresh),
    native: [programs[i].native, [nativeFile]],
    node: [process.execPath, ['-e', '']],
  }[variant.id];
  // a module's first run, not Spindle's: its own compiled JavaScript (Node 22+, which
  // --code-cache=DIR would look for in DIR/js) is where the earlier runs left it
  const env = variant.id === 'spindle-first' ? { ...process.env, NODE_COMPILE_CACHE: join(cache, 'kept', 'js') } : process.env;
  const started = performance.now();
  const r = await exec(cmd, args, { env });
  const ms = performance.now() - started;
  if (r.code !== 0) throw new Error(`${variant.label}, ${points[i].label}: exit ${r.code}: ${r.stderr.slice(-500)}`);
  rmSync(nativeFile, { force: true });
  rmSync(fresh, { recursive: true, force: true });
  return ms;
}

export function startupExperiments({ quick }) {
  return [{
    id: 'startup', title: 'Start-up: the whole process, spawn to exit, of a hello world without and with a thread',
    chart: 'cases', host: 'node', baseline: 'native', source: 'bench/startup/hello_thread.c',
    points: points.map((p) => p.label), speedupOf: {}, variants,
    note: 'Wall time of the process as a user starts it (Spindle: Node\'s start, the CLI, compilation, workers, ' +
      'the program and the exit). bench/startup/hello.c prints a line; hello_thread.c starts one pthread that writes ' +
      'a file (Spindle: its in-memory FS; native: tmpfs) and joins it. node -e "" is the floor of any host in Node. ' +
      'spindle run keeps V8\'s compiled code between runs (docs/HOST.md, "Compiled-code cache"): the first series ' +
      'runs with the code an earlier run left, the second is every module\'s first run, which compiles and stores it. ' +
      'Issue 20\'s targets: 0.10 s and 0.15 s on the 2-core VM, where node -e "" takes ~0.06 s.',
    estimateS: () => (quick ? 3 : 15),
    async suite({ runs, buildDir, progress }) {
      progress('building');
      const programs = buildPrograms(buildDir);
      const rounds = quick ? runs : Math.max(7, runs); // start-up is short and noisy: more rounds, still seconds
      const out = Object.fromEntries(variants.map((v) => [v.id, Object.fromEntries(points.map((p) => [p.label, []]))]));
      const cache = mkdtempSync(join(tmpdir(), 'spindle-startup-cache-'));
      for (let i = 0; i < points.length; i++) await timeOne(variants[0], programs, i, cache); // the earlier run
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < points.length; i++) {
          for (const v of variants) {
            progress(`run ${round + 1}/${rounds}, ${points[i].label}, ${v.id}`);
            out[v.id][points[i].label].push({ ms: await timeOne(v, programs, i, cache) });
          }
        }
      }
      rmSync(cache, { recursive: true, force: true });
      // Spindle against node -e "": issue 20's 0.10 s and 0.15 s over Node's own 0.06 s.
      const overNode = (point, limit) => target({ label: `${point}: Spindle wall time / node -e "" wall time`, op: '<=', limit },
        (pick) => pick(out.spindle[point].map((r) => r.ms)) / pick(out.node[point].map((r) => r.ms)), rounds);
      return {
        runs: out,
        info: { rounds },
        targets: [overNode('hello world', 1.7), overNode('one pthread writes a file', 2.5)],
      };
    },
  }];
}
