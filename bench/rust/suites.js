// The Rust experiments of `spindle bench`: bench/rust built by plain cargo (wasi-libc's dlmalloc,
// the default Rust build) and by `spindle cargo`, both run by `spindle run` in Node at 1, 2 and
// 2x-cores threads, interleaved, beside the same code built natively (the machine's own ceiling:
// on a loaded machine it shows how many cores were really free). rust-churn: each thread churns Vec/Box/String/format!
// allocations (work grows with the threads, so the 2-thread speed-up is 2 x t1 / t2);
// rust-rayon: one par_iter sum over a fixed range on a pool of that many threads (t1 / t2).
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { exec } from '../../tests/lib/exec.js';
import { rustToolchain } from '../../cli/common/toolchain.js';
import { spindleArgs } from '../spindle-command.js';

const root = join(import.meta.dirname, '..', '..');
const crate = join(root, 'bench', 'rust');
const binaryPath = (dir, id) => (id === 'native'
  ? join(dir, 'release', 'rust-bench')
  : join(dir, 'wasm32-wasip1-threads', 'release', 'rust-bench.wasm'));

/** Builds bench/rust as { variantId: path }: the wasm builds, and native unless `wasmOnly`. */
export function buildAll(buildDir, { wasmOnly = false } = {}) {
  const builds = {
    'rust-default': ['cargo', ['build', '--release', '--locked', '--target', 'wasm32-wasip1-threads']],
    'spindle-cargo': [process.execPath, spindleArgs('cargo', 'build', '--release', '--locked')],
    ...(wasmOnly ? {} : { native: ['cargo', ['build', '--release', '--locked']] }),
  };
  const out = {};
  for (const [id, [cmd, args]] of Object.entries(builds)) {
    const targetDir = join(buildDir, id);
    const r = spawnSync(cmd, args, { cwd: crate, encoding: 'utf8',
      env: { ...process.env, CARGO_TARGET_DIR: targetDir, RUSTUP_TOOLCHAIN: process.env.RUSTUP_TOOLCHAIN || rustToolchain } });
    if (r.status !== 0) throw new Error(`${id}: ${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
    out[id] = binaryPath(targetDir, id);
  }
  return out;
}

async function runOnce(binary, args) {
  const [cmd, argv] = binary.endsWith('.wasm') ? [process.execPath, spindleArgs('run', '--wait-for-pool', binary, ...args)] : [binary, args];
  const r = await exec(cmd, argv, { timeoutMs: 600000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.code !== 0 || !line) throw new Error(`${binary} ${args.join(' ')}: exit ${r.code}\n${r.stderr.slice(-800)}`);
  return JSON.parse(line.slice(7));
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

function rustExperiment({ id, title, workload, n, weak, targets }) {
  const threads = [...new Set([1, 2, 2 * availableParallelism()])];
  const point = (t) => `${t} thread${t > 1 ? 's' : ''}`;
  return {
    id, title, chart: 'cases', source: 'bench/rust/src/main.rs', host: 'node', baseline: 'rust-default',
    points: threads.map(point),
    variants: [{ id: 'rust-default', label: 'Rust default build (dlmalloc)' }, { id: 'spindle-cargo', label: 'spindle cargo' },
      { id: 'native', label: 'native (same code, glibc)' }],
    note: `bench/rust/src/main.rs \`${workload} THREADS ${n}\`; "Rust default build": \`cargo build --release --target ` +
      'wasm32-wasip1-threads` (wasi-libc\'s dlmalloc), "spindle cargo": `spindle cargo build --release`; both run by ' +
      '`spindle run` in Node, and the same code built natively (cargo build --release), interleaved. ' +
      `${weak ? 'Each thread does the same work, so throughput is threads / ms.' : 'Fixed work split over the threads.'}`,
    async suite({ runs, buildDir, progress }) {
      const binaries = buildAll(join(buildDir, 'rust'));
      const out = Object.fromEntries(Object.keys(binaries).map((v) => [v, Object.fromEntries(threads.map((t) => [point(t), []]))]));
      for (let i = 0; i < runs; i++) {
        for (const t of threads) {
          for (const [variant, file] of Object.entries(binaries)) {
            progress(`run ${i + 1}/${runs}, ${t} threads, ${variant}`);
            out[variant][point(t)].push(await runOnce(file, [workload, String(t), String(n)]));
          }
        }
      }
      const ms = (variant, t) => median(out[variant][point(t)].map((r) => r.ms));
      const perRun = (variant, f) => out[variant][point(1)].map((_, i) => f(out[variant][point(1)][i].ms, out[variant][point(2)][i].ms));
      const speedup = (t1, t2) => (weak ? 2 * t1 / t2 : t1 / t2);
      const target = (label, op, limit, value, each) => ({ label, value, op, limit, met: op === '>=' ? value >= limit : value <= limit, perRun: each });
      return {
        runs: out,
        targets: targets.map(([label, kind, op, limit]) => {
          if (kind === 'one-thread') {
            return target(label, op, limit, ms('spindle-cargo', 1) / ms('rust-default', 1),
              out['spindle-cargo'][point(1)].map((r, i) => r.ms / out['rust-default'][point(1)][i].ms));
          }
          return { ...target(label, op, limit, speedup(ms(kind, 1), ms(kind, 2)), perRun(kind, speedup)),
            context: `native in the same runs: ${speedup(ms('native', 1), ms('native', 2)).toFixed(2)}x` };
        }),
      };
    },
  };
}

export function rustExperiments({ quick }) {
  return [
    rustExperiment({
      id: 'rust-churn', title: 'Rust allocation churn (Vec/Box/String/format!) per thread', workload: 'churn',
      n: quick ? 200000 : 2000000, weak: true,
      targets: [
        ['spindle cargo: 2-thread throughput / 1-thread', 'spindle-cargo', '>=', 1.8],
        ['Rust default build: 2-thread throughput / 1-thread', 'rust-default', '<=', 0.9],
        ['1 thread: spindle cargo time / default build time', 'one-thread', '<=', 1.0],
      ],
    }),
    rustExperiment({
      id: 'rust-rayon', title: 'Rust rayon par_iter sum over a fixed range', workload: 'rayon',
      n: quick ? 20000000 : 200000000, weak: false,
      targets: [['spindle cargo: rayon 2-thread speed-up', 'spindle-cargo', '>=', 1.8]],
    }),
  ];
}
