// Which of V8's WebAssembly compilers a Node process runs. They are V8 flags, given when Node
// starts and never changed while it runs (cli/common/v8-start.js; docs/HOST.md, "Node versions"). Liftoff is V8's baseline compiler (quick to compile,
// slower code), TurboFan its optimizing one; dynamic tiering re-compiles a function with TurboFan
// in the background once it has run hot in Liftoff code.
export const WASM_TIERS = {
  // Every function compiled once, by TurboFan: what `spindle` runs (cli/common/v8-start.js).
  optimized: ['--no-liftoff', '--no-wasm-dynamic-tiering'],
  // V8's own defaults on every Node since 20, as in Chromium: Liftoff code first, hot functions
  // tiered up to TurboFan.
  tiered: ['--liftoff', '--wasm-dynamic-tiering'],
  // Liftoff code first, and at once every function queued for TurboFan on V8's background
  // threads, hot or not (V8's "eager tier-up"): a quick start, and each function's next call
  // after its TurboFan code is in runs that code, without waiting to run hot.
  background: ['--liftoff', '--wasm-tier-up', '--no-wasm-dynamic-tiering'],
  // TurboFan only, without inlining wasm calls into their callers (V8 inlines by default from
  // Node 24; off on Node 20, absent on 22): an eager compile of a hello world costs 54 ms of CPU
  // against 142 with inlining, but the code runs slower (docs/HOST.md). On Node 20 and 22 the
  // same as `optimized`.
  'optimized-no-inlining': ['--no-liftoff', '--no-wasm-dynamic-tiering', '--no-wasm-inlining'],
  // Liftoff's code only, never tiered up: what a Node started with --no-wasm-tier-up runs.
  'liftoff-only': ['--liftoff', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'],
};

const major = (nodeVersion) => Number(nodeVersion.split('.')[0]);

/** Whether this Node's V8 inlines wasm calls by default (`--wasm-inlining`, on from Node 24). */
export const inlinesWasmCalls = (nodeVersion = process.versions.node) => major(nodeVersion) >= 24;

/** The V8 flags of WASM_TIERS entry `tiers` on a Node version: no inlining flag where V8 does not inline. */
export const tierFlagsFor = (tiers, nodeVersion = process.versions.node) =>
  WASM_TIERS[tiers].filter((flag) => flag !== '--no-wasm-inlining' || inlinesWasmCalls(nodeVersion));

/** Whether a WASM_TIERS entry runs Liftoff code (which on Node 20 needs the moved waits). */
export const usesLiftoff = (tiers) => WASM_TIERS[tiers].includes('--liftoff');

// From this size of code section (the functions' bodies) a module whose TurboFan code is not in
// the compiled-code cache runs under Liftoff + tiering, in a Node started for it, while its
// TurboFan code is made for the next run (cli/common/v8-start.js). TurboFan's eager compile costs ~0.7
// ms of CPU per KiB of code (no knee; Liftoff's ~0.06): every C program with the runtime (58-103
// KiB) and a Rust hello world (108 KiB) are under it; C++ with iostream (372 KiB), Rust with rayon
// (270 KiB) over it (docs/HOST.md).
export const TURBOFAN_CODE_LIMIT = 128 * 1024;

/** Whether this Node's Liftoff needs each wait moved into a call (host/compile/liftoff-wait-calls.js). */
export function liftoffLosesWaitValues(nodeVersion = process.versions.node) {
  return major(nodeVersion) <= 20;
}

// The flags of WASM_TIERS and of the compile mode as V8 reads them: `--no-x`, `--x`, `--x=false`,
// underscores or dashes; the last one given wins, as in V8.
function flagValue(argv, name) {
  let value;
  for (const arg of argv) {
    const m = /^--(no-)?([a-z0-9_-]+)(?:=(.*))?$/.exec(arg);
    if (!m || m[2].replaceAll('_', '-') !== name) continue;
    const on = m[3] === undefined ? true : !['false', '0'].includes(m[3]);
    value = m[1] ? !on : on;
  }
  return value;
}

/**
 * The compilers and compile mode V8 runs in this process, read from the flags Node was started
 * with (NODE_OPTIONS cannot carry them): { tiers, compilation }, tiers a WASM_TIERS entry or
 * 'liftoff-only', compilation 'eager' or 'lazy'. V8's defaults, on every Node since 20: Liftoff
 * first with dynamic tiering, compiled lazily. The host never changes V8's flags while a process
 * runs (docs/HOST.md, "Node versions"): Node 26's V8 aborts when they change under a module.
 */
export function processTiers(argv = process.execArgv, nodeVersion = process.versions.node) {
  const liftoff = flagValue(argv, 'liftoff') ?? true;
  const dynamic = liftoff && (flagValue(argv, 'wasm-dynamic-tiering') ?? true);
  const tierUp = flagValue(argv, 'wasm-tier-up') ?? true;
  const inlining = flagValue(argv, 'wasm-inlining') ?? inlinesWasmCalls(nodeVersion);
  let tiers;
  if (!liftoff) tiers = inlining || !inlinesWasmCalls(nodeVersion) ? 'optimized' : 'optimized-no-inlining';
  else if (dynamic) tiers = 'tiered';
  else tiers = tierUp ? 'background' : 'liftoff-only';
  return { tiers, compilation: flagValue(argv, 'wasm-lazy-compilation') ?? true ? 'lazy' : 'eager' };
}

/** The V8 flags that start a Node in compile mode `compilation` ('eager' or 'lazy') with WASM_TIERS entry `tiers`. */
export const startFlagsFor = (tiers, compilation, nodeVersion = process.versions.node) =>
  [...tierFlagsFor(tiers, nodeVersion), compilation === 'eager' ? '--no-wasm-lazy-compilation' : '--wasm-lazy-compilation'];
