// Which of V8's WebAssembly compilers Node runs, chosen per Node version because the engines
// differ (docs/HOST.md, "Node versions"). Liftoff is V8's baseline compiler (quick to compile,
// slower code), TurboFan its optimizing one; dynamic tiering re-compiles a function with TurboFan
// in the background once it has run hot in Liftoff code.
export const WASM_TIERS = {
  // Every function compiled once, by TurboFan: Node 20's default, and what it falls back to when
  // `tiered` is asked for a module whose waits cannot be moved into calls (liftoff-wait-calls.js).
  optimized: ['--no-liftoff', '--no-wasm-dynamic-tiering'],
  // V8's own defaults, as in Chromium: Liftoff code first, hot functions tiered up to TurboFan.
  tiered: ['--liftoff', '--wasm-dynamic-tiering'],
  // Liftoff code first, and at once every function queued for TurboFan on V8's background
  // threads, hot or not (V8's "eager tier-up"): a quick start, and each function's next call
  // after its TurboFan code is in runs that code, without waiting to run hot.
  background: ['--liftoff', '--wasm-tier-up', '--no-wasm-dynamic-tiering'],
  // TurboFan only, without inlining wasm calls into their callers. Node 24's V8 inlines by
  // default (`--wasm-inlining`; off on Node 20, absent on 22), and without tiering's call counts
  // that made an eager compile of a hello world cost 142 ms of CPU against 54 (docs/HOST.md).
  // On Node 20 and 22 the same as `optimized`.
  'optimized-no-inlining': ['--no-liftoff', '--no-wasm-dynamic-tiering', '--no-wasm-inlining'],
};

const major = (nodeVersion) => Number(nodeVersion.split('.')[0]);

/** Whether this Node's V8 inlines wasm calls by default (`--wasm-inlining`, on from Node 24). */
export const inlinesWasmCalls = (nodeVersion = process.versions.node) => major(nodeVersion) >= 24;

/** The V8 flags of WASM_TIERS entry `tiers` on a Node version: no inlining flag where V8 does not inline. */
export const tierFlagsFor = (tiers, nodeVersion = process.versions.node) =>
  WASM_TIERS[tiers].filter((flag) => flag !== '--no-wasm-inlining' || inlinesWasmCalls(nodeVersion));

/** Whether a WASM_TIERS entry runs Liftoff code (which on Node 20 needs the moved waits). */
export const usesLiftoff = (tiers) => WASM_TIERS[tiers].includes('--liftoff');

/**
 * The WASM_TIERS entry for a Node version (default: this Node's). Node 22 and 24 run V8's
 * defaults. Node 20 stays `optimized`: its Liftoff is safe with each wait moved into a call
 * (liftoffLosesWaitValues), but its dynamic tiering left long threaded jobs up to 3x slower in 4
 * of 11 runs (docs/HOST.md), so `tiered` there is an opt-in. SPINDLE_WASM_TIERS in the
 * environment overrides it: `spindle bench` sets `optimized`, so that its Node series time
 * optimized code on every version, as its Chromium does (docs/DESIGN.md).
 */
export function wasmTiersFor(nodeVersion = process.versions.node) {
  const asked = process.env.SPINDLE_WASM_TIERS;
  if (asked) {
    if (!Object.hasOwn(WASM_TIERS, asked)) throw new Error(`SPINDLE_WASM_TIERS=${asked}: expected ${Object.keys(WASM_TIERS).join(' or ')}`);
    return asked;
  }
  return major(nodeVersion) <= 20 ? 'optimized' : 'tiered';
}

/** Whether this Node's Liftoff needs each wait moved into a call (host/liftoff-wait-calls.js). */
export function liftoffLosesWaitValues(nodeVersion = process.versions.node) {
  return major(nodeVersion) <= 20;
}
