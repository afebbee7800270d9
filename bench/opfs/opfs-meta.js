// Metadata calls and opens on an OPFS mount, as a user runs them: `spindle run --browser[=NAME]
// --mount /data=opfs:spindle-meta opfs_io.wasm meta /data COUNT` (bench/opfs/opfs_io.c's `meta`
// mode: ms per stat and per unlink of COUNT 1 KiB files, ms to read 64 x 1 MiB files opened
// O_RDWR and O_RDONLY). The reference figures are Emscripten 4.0.23 WasmFS's OPFS backend on the
// same calls in Chromium 156 (issue 20).
//
//   node bench/opfs/opfs-meta.js [--runs=5] [--count=200] [--browser=chromium|firefox]
//                                [--against=CHECKOUT]   prints RUN and RESULT lines
//
// --against runs another checkout's bin/spindle (e.g. a worktree of main) with the same wasm,
// interleaved with this one in one loop, for before/after figures. From code:
// `opfsMetaBench({ runs, count, browser, roots })` -> { runs: [{ [root]: result }], medians }.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { buildOpfsBench } from './spindle-opfs.js';
import { median } from '../report/stats.js';

const root = join(import.meta.dirname, '..', '..');

// WasmFS's figures (issue 20): the targets are to be faster than these
export const wasmfsFigures = { stat_ms: 0.44, unlink_ms: 0.51, read_64x1m_rdwr_ms: 173 };

/** One run of the meta mode with `checkout`'s bin/spindle; its RESULT as an object. */
export function runMeta({ checkout = root, wasm, count = 200, browser = 'chromium' }) {
  const args = ['run', `--browser=${browser}`, '--mount', '/data=opfs:spindle-meta', wasm, 'meta', '/data', String(count)];
  const r = spawnSync(join(checkout, 'bin', 'spindle'), args, { encoding: 'utf8', timeout: 600000 });
  const line = r.stdout?.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.status !== 0 || !line) throw new Error(`opfs_io meta (${checkout}) failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(line.slice('RESULT '.length));
}

export function opfsMetaBench({ runs = 5, count = 200, browser = 'chromium', roots = [root], onRun = () => {} } = {}) {
  const wasm = buildOpfsBench();
  const all = [];
  for (let i = 0; i < runs; i++) {
    onRun(i);
    // the order alternates (A B, B A, ...): neither side always runs on a just-started machine
    const order = i % 2 ? [...roots].reverse() : roots;
    const run = Object.fromEntries(order.map((checkout) => [checkout, runMeta({ checkout, wasm, count, browser })]));
    all.push(Object.fromEntries(roots.map((checkout) => [checkout, run[checkout]])));
  }
  const medians = Object.fromEntries(roots.map((checkout) => [checkout,
    Object.fromEntries(Object.keys(all[0][checkout]).map((k) => [k, median(all.map((r) => r[checkout][k]))]))]));
  return { runs: all, medians };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => process.argv.find((x) => x.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
  const against = arg('against', null);
  const roots = against ? [resolve(against), root] : [root];
  const r = opfsMetaBench({ runs: Number(arg('runs', 5)), count: Number(arg('count', 200)), browser: arg('browser', 'chromium'), roots });
  for (const run of r.runs) console.log(`RUN ${JSON.stringify(run)}`);
  for (const [checkout, m] of Object.entries(r.medians)) console.log(`RESULT ${JSON.stringify({ checkout, ...m })}`);
  const mine = r.medians[root];
  for (const [k, ref] of Object.entries(wasmfsFigures)) {
    console.log(`target ${k}: ${mine[k]} (WasmFS ${ref}): ${mine[k] <= ref ? 'met' : 'NOT met'}`);
  }
}
