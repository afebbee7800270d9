// The start-up experiment of `spindle bench` (issues 20 and 35): whole processes timed from
// spawn to exit as a user runs them (`spindle run` with default options, the same C built
// natively by the system clang, `node -e ""`, the floor of any Node host): a hello world, one
// whose pthread writes a file, and two workloads that start their threads for the work (own
// files and the reference malloc ring, 1 and 2 threads), whose own clocks, thread starts
// included, are points of their own. Spindle runs twice at every point: with what an earlier
// run of the module left (its compiled code and thread hint: every run but the first) and as
// the module's first run. Its own interleaved suite, so every round runs each variant at each
// point in turn.
import { spawnSync } from 'node:child_process';
import { chmodSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spindleArgs } from '../spindle-command.js';
import { makersDone } from '../../cli/common/turbofan-maker.js';
import { clang } from '../../cli/common/toolchain.js';
import { exec } from '../../tests/lib/exec.js';
import { target } from '../targets.js';

const root = join(import.meta.dirname, '..', '..');
const tmpfs = '/dev/shm';
const RING_OPS = 10000000;

// Each program, its arguments per point, where its RESULT line gives its own time (ms), and the
// peer's flags: Emscripten's defaults plus each case's best, as its documentation advises (a
// pool of workers made before main, WasmFS for files, mimalloc for the ring).
const programs = {
  hello: { source: 'bench/startup/hello.c', emcc: [] },
  helloThread: { source: 'bench/startup/hello_thread.c', args: (nativeFile) => (nativeFile ? [nativeFile] : []),
    emcc: ['-sPTHREAD_POOL_SIZE=1', '-sWASMFS'] },
  ownFiles: { source: 'bench/fs/own_files.c', programMs: (r) => r.with_thread_start_s * 1000,
    emcc: ['-sWASMFS', '-sPTHREAD_POOL_SIZE=2', '-sALLOW_MEMORY_GROWTH=1'] },
  ring: { source: 'bench/alloc/ref_workload.c', programMs: (r) => r.ms,
    emcc: ['-sPTHREAD_POOL_SIZE=2', '-sMALLOC=mimalloc', '-sALLOW_MEMORY_GROWTH=1'] },
};

// Emscripten 6.0.8 where scripts/emscripten-peer.sh has built it (never part of setup): its
// emcc and config, or null.
function emscriptenPeer() {
  const dir = join(root, '.toolchain', 'emscripten');
  const built = existsSync(dir) && readdirSync(dir).some((name) => name.startsWith('.done-'));
  return built ? { emcc: join(dir, 'emscripten', 'emcc'), config: join(dir, 'em_config.py') } : null;
}
const peer = emscriptenPeer();
const points = [
  { label: 'hello world', program: 'hello' },
  { label: 'one pthread writes a file', program: 'helloThread' },
  { label: 'own files, 1 thread', program: 'ownFiles', args: ['1'] },
  { label: 'own files, 2 threads', program: 'ownFiles', args: ['2'] },
  { label: 'malloc ring, 1 thread', program: 'ring', args: ['1', String(RING_OPS)] },
  { label: 'malloc ring, 2 threads', program: 'ring', args: ['2', String(RING_OPS)] },
];
// the program's own clock, thread starts included, as a point of its own
const inProgram = (label) => `${label}, in the program`;
const pointLabels = [...points.map((p) => p.label), ...points.filter((p) => programs[p.program].programMs).map((p) => inProgram(p.label))];
const variants = [
  { id: 'spindle', label: 'spindle run (default options; code and thread hint left by an earlier run)' },
  { id: 'spindle-first', label: 'spindle run, first run of the module (empty code cache, no hint)' },
  { id: 'native', label: 'native (clang -O2)' },
  { id: 'node', label: 'node -e ""' },
  ...(peer ? [{ id: 'emscripten', label: 'Emscripten 6.0.8 (node PROGRAM.js; -O2 -pthread and each case\'s best flags)' }] : []),
];

function build(compiler, args, env = process.env) {
  const r = spawnSync(compiler, args, { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`${compiler} ${args.join(' ')} failed:\n${r.stderr}`);
}

/** Each program as { spindle, native, emscripten } paths, built into `dir` (emscripten where the peer is built). */
function buildPrograms(dir) {
  mkdirSync(dir, { recursive: true });
  if (peer) { // (emcc writes CommonJS, which the repository's package.json would have Node read as a module)
    mkdirSync(join(dir, 'emscripten'), { recursive: true });
    writeFileSync(join(dir, 'emscripten', 'package.json'), '{ "type": "commonjs" }\n');
  }
  return Object.fromEntries(Object.entries(programs).map(([name, p]) => {
    const source = join(root, p.source);
    const base = join(dir, name);
    const emscripten = join(dir, 'emscripten', `${name}.js`);
    build(join(root, 'bin', 'spindle'), ['cc', '-O2', source, '-o', `${base}.wasm`]);
    build(clang, ['-O2', '-pthread', source, '-o', base]);
    if (peer) build(peer.emcc, ['-O2', '-pthread', ...p.emcc, source, '-o', emscripten], { ...process.env, EM_CONFIG: peer.config });
    return [name, { spindle: `${base}.wasm`, native: base, emscripten }];
  }));
}

/** The run bundle's code that runs with cache `from` kept, copied into cache `to` (a new one). */
function keptScriptCode(from, to) {
  const kept = join(from, 'js', 'run-bundle');
  if (existsSync(kept)) cpSync(kept, join(to, 'js', 'run-bundle'), { recursive: true, mode: constants.COPYFILE_EXCL });
  for (const dir of [to, join(to, 'js'), join(to, 'js', 'run-bundle')]) if (existsSync(dir)) chmodSync(dir, 0o700);
}

/** One run of `variant` at `point`: { ms } from spawn to exit, and the program's own ms where it has one. */
async function timeOne(variant, built, point, cache) {
  const program = programs[point.program];
  const nativeFile = join(tmpfs, `spindle-startup-${process.pid}.txt`);
  const args = point.args ?? program.args?.(variant.id === 'native' ? nativeFile : null) ?? [];
  const spindleRun = (cacheDir) => [process.execPath,
    // as bin/spindle starts Node (its main thread then runs the C main)
    spindleArgs('run', `--code-cache=${cacheDir}`, built[point.program].spindle, ...args)];
  const fresh = join(cache, `first-${variant.id}-${point.program}-${performance.now()}`);
  const [cmd, argv] = {
    spindle: spindleRun(join(cache, 'kept')),
    'spindle-first': spindleRun(fresh),
    native: [built[point.program].native, args],
    node: [process.execPath, ['-e', '']],
    emscripten: [process.execPath, [built[point.program].emscripten, ...args]],
  }[variant.id];
  // a module's first run, not Spindle's: its own compiled JavaScript (Node 22+, which
  // --code-cache=DIR would look for in DIR/js) is where the earlier runs left it, and the run
  // bundle's code (DIR/js/run-bundle, cli/run/script-cache.js) is what they kept
  // (as a user runs it: not the bench's SPINDLE_WASM_TIERS=optimized, which would restart a first run)
  if (variant.id === 'spindle-first') keptScriptCode(join(cache, 'kept'), fresh);
  const { SPINDLE_WASM_TIERS: _tiers, ...userEnv } = process.env;
  const env = { ...userEnv, ...(variant.id === 'native' ? { TMPDIR: tmpfs } : {}),
    ...(variant.id === 'spindle-first' ? { NODE_COMPILE_CACHE: join(cache, 'kept', 'js') } : {}) };
  const started = performance.now();
  const r = await exec(cmd, argv, { env, timeoutMs: 120000 });
  const ms = performance.now() - started;
  if (r.code !== 0) throw new Error(`${variant.label}, ${point.label}: exit ${r.code}: ${r.stderr.slice(-500)}`);
  rmSync(nativeFile, { force: true });
  // (a first run leaves a maker of its module's TurboFan code behind: not in the next run's time)
  if (variant.id === 'spindle-first') await makersDone(fresh);
  rmSync(fresh, { recursive: true, force: true });
  if (variant.id === 'node' || !program.programMs) return { ms };
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${variant.label}, ${point.label}: no RESULT line in ${r.stdout.slice(-300)}`);
  return { ms, programMs: program.programMs(JSON.parse(line.slice('RESULT '.length))) };
}

export function startupExperiments({ quick }) {
  return [{
    id: 'startup', title: 'Start-up: whole processes, spawn to exit, and programs that start their threads for the work',
    chart: 'cases', host: 'node', baseline: 'native', source: 'bench/startup/hello_thread.c',
    points: pointLabels, speedupOf: {}, variants,
    note: 'Wall time of the process as a user starts it (Spindle: Node\'s start, the CLI, compilation, workers, ' +
      'the program and the exit). bench/startup/hello.c prints a line; hello_thread.c starts one pthread that writes ' +
      'a file (Spindle: its in-memory FS; native: tmpfs) and joins it; bench/fs/own_files.c (200 files of 64 KiB ' +
      `created, written, read back and unlinked over 1 or 2 pthreads) and bench/alloc/ref_workload.c (${RING_OPS / 1e6}M ` +
      'malloc/free ring operations on main, or over 2 pthreads) also give their own clock from before their first ' +
      'pthread_create to the end ("in the program"). node -e "" is the floor of any host in Node. spindle run keeps ' +
      'V8\'s compiled code and how many threads\' workers a module used between runs (docs/HOST.md, "Start-up"): the ' +
      'first series runs with what an earlier run left, the second is every module\'s first run. Issue 35\'s targets: ' +
      'hello world <= 1.3x node -e "", one pthread <= 2.9x; 2 threads >= 1.5x the speed of 1 in the program. ' +
      'Where scripts/emscripten-peer.sh has built Emscripten 6.0.8, the same C built by it runs beside them (its ' +
      'flags: bench/startup/suite.js).',
    estimateS: () => (quick ? 8 : 60),
    async suite({ runs, buildDir, progress }) {
      progress('building');
      const built = buildPrograms(buildDir);
      const rounds = quick ? runs : Math.max(7, runs); // start-up is short and noisy: more rounds, still seconds
      const out = Object.fromEntries(variants.map((v) => [v.id, Object.fromEntries(pointLabels.map((p) => [p, []]))]));
      const cache = mkdtempSync(join(tmpdir(), 'spindle-startup-cache-'));
      for (const point of points) await timeOne(variants[0], built, point, cache); // the earlier run
      await makersDone(join(cache, 'kept')); // (the code it has made for the later runs)
      for (let round = 0; round < rounds; round++) {
        for (const point of points) {
          for (const v of variants) {
            progress(`run ${round + 1}/${rounds}, ${point.label}, ${v.id}`);
            const { ms, programMs } = await timeOne(v, built, point, cache);
            out[v.id][point.label].push({ ms });
            if (programMs !== undefined) out[v.id][inProgram(point.label)].push({ ms: programMs });
          }
        }
      }
      rmSync(cache, { recursive: true, force: true });
      // Spindle against node -e "": issue 35's 1.3x and 2.9x, Emscripten 6.0.8's ratios on Node 24.
      const overNode = (point, limit) => target({ label: `${point}: Spindle wall time / node -e "" wall time`, op: '<=', limit },
        (pick) => pick(out.spindle[point].map((r) => r.ms)) / pick(out.node[point].map((r) => r.ms)), rounds);
      // 2 threads against 1, on the program's own clock, thread starts included
      const twoOverOne = (series, work) => target({ label: `${work}, ${series === 'spindle' ? 'later runs' : 'first run'}: speed at 2 threads / at 1 (in the program)`,
        op: '>=', limit: series === 'spindle' ? 1.5 : 1 },
      (pick) => pick(out[series][inProgram(`${work}, 1 thread`)].map((r) => r.ms)) / pick(out[series][inProgram(`${work}, 2 threads`)].map((r) => r.ms)), rounds);
      return {
        runs: out,
        // (node -e "" has no clock of its own: its in-program points stay empty)
        info: { rounds, noValue: { node: pointLabels.filter((p) => p.endsWith(', in the program')) } },
        targets: [overNode('hello world', 1.3), overNode('one pthread writes a file', 2.9),
          ...['own files', 'malloc ring'].flatMap((work) => [twoOverOne('spindle', work), twoOverOne('spindle-first', work)])],
      };
    },
  }];
}
