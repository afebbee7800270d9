// The napi-rs addon experiment of `spindle bench`: tests/napi/addon's alloc_churn (small Vec,
// String and Box allocations on each of THREADS rayon threads) in its default wasm build
// (wasi-libc's dlmalloc) and its `spindle cargo --host=wasi` build (Spindle's malloc), both
// loaded through @napi-rs/wasm-runtime in Node (tests/napi/loader.cjs), interleaved. docs/NAPI.md.
import { join } from 'node:path';
import { exec } from '../../tests/lib/exec.js';
import { buildAddon } from '../../tests/napi/build.js';
import { median } from '../report/stats.js';

const root = join(import.meta.dirname, '..', '..');
const churn = join(root, 'bench', 'napi', 'churn.cjs');
const variants = ['napi-default', 'napi-spindle'];
const builds = { 'napi-default': 'default', 'napi-spindle': 'spindle' };
const threads = [1, 2];
const point = (t) => `${t} thread${t > 1 ? 's' : ''}`;

async function runOnce(wasm, t, iterations) {
  const r = await exec(process.execPath, ['--no-warnings', churn, wasm, String(t), String(iterations)], { timeoutMs: 600000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.code !== 0 || !line) throw new Error(`churn.cjs ${wasm} ${t}: exit ${r.code}\n${r.stderr.slice(-800)}`);
  return JSON.parse(line.slice(7));
}

export function napiExperiments({ quick }) {
  const iterations = quick ? 100000 : 1000000;
  return [{
    id: 'napi-churn', title: 'napi-rs addon: allocation churn on rayon threads, under @napi-rs/wasm-runtime',
    chart: 'cases', source: 'tests/napi/addon/src/lib.rs', host: 'node', baseline: 'napi-default',
    points: threads.map(point),
    variants: [{ id: 'napi-default', label: 'napi-rs default wasm build (dlmalloc)' },
      { id: 'napi-spindle', label: 'spindle cargo --host=wasi' }],
    note: `tests/napi/addon \`allocChurn(THREADS, ${iterations})\` (each thread does the same work), timed inside the ` +
      'addon; "default": `cargo build --release --target wasm32-wasip1-threads` with napi-build\'s flags, ' +
      '"spindle": `spindle cargo --host=wasi build --release`; both loaded by tests/napi/loader.cjs in Node, interleaved.',
    async suite({ runs, progress }) {
      const wasm = {};
      for (const v of variants) wasm[v] = await buildAddon(builds[v]);
      const out = Object.fromEntries(variants.map((v) => [v, Object.fromEntries(threads.map((t) => [point(t), []]))]));
      for (let i = 0; i < runs; i++) {
        for (const t of threads) {
          for (const v of variants) {
            progress(`run ${i + 1}/${runs}, ${t} threads, ${v}`);
            out[v][point(t)].push(await runOnce(wasm[v], t, iterations));
          }
        }
      }
      const times = (v) => out[v][point(2)].map((r) => r.ms);
      const perRun = times('napi-default').map((ms, i) => ms / times('napi-spindle')[i]);
      const value = median(times('napi-default')) / median(times('napi-spindle'));
      return {
        runs: out,
        targets: [{ label: '2 threads: spindle build speed-up over the default build', op: '>=', limit: 1.5, value, met: value >= 1.5, perRun }],
      };
    },
  }];
}
