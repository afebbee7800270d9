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

// Code sections (the functions' bodies) below this size get TurboFan only on Node 22 and 24;
// from it on, Liftoff + tiering. TurboFan's eager compile costs ~0.7 ms of CPU per KiB of code
// (no knee; Liftoff's ~0.06), so this is where it stays under ~100 ms of CPU, ~55 ms of wall on
// two cores: every C program with the runtime (58-103 KiB) and a Rust hello world (108 KiB) are
// under it; C++ with iostream (372 KiB), Rust with rayon (270 KiB) over it (docs/HOST.md).
export const TURBOFAN_CODE_LIMIT = 128 * 1024;

/** The TurboFan-only WASM_TIERS entry for a Node version: without wasm inlining where V8 inlines. */
export const turbofanTiers = (nodeVersion = process.versions.node) => (inlinesWasmCalls(nodeVersion) ? 'optimized-no-inlining' : 'optimized');

const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;

/**
 * The WASM_TIERS entry for a module of `codeBytes` bytes of code (its code section) on a Node
 * version (default: this Node's), and why: { tiers, reason }. SPINDLE_WASM_TIERS in the
 * environment overrides it: `spindle bench` sets `optimized`, so that its Node series time
 * optimized code on every version, as its Chromium does (docs/DESIGN.md).
 * - Node 20: `optimized`. Its Liftoff is safe only with each wait moved into a call
 *   (liftoffLosesWaitValues), and its dynamic tiering left long threaded jobs up to 3x slower.
 * - Node 22 and 24, code under TURBOFAN_CODE_LIMIT: TurboFan only (without wasm inlining on 24,
 *   whose inlining costs 2.5x the compile): a short program's functions, called a few times
 *   each, never tier up under Liftoff + tiering, and ran 1.9-2.4x TurboFan's time.
 * - Node 22 and 24, bigger code: `tiered`, V8's defaults: TurboFan for all of it costs hundreds of
 *   ms of start-up, Liftoff a few.
 */
export function wasmTiersFor(codeBytes, nodeVersion = process.versions.node) {
  const asked = process.env.SPINDLE_WASM_TIERS;
  if (asked) {
    if (!Object.hasOwn(WASM_TIERS, asked)) throw new Error(`SPINDLE_WASM_TIERS=${asked}: expected ${Object.keys(WASM_TIERS).join(' or ')}`);
    return { tiers: asked, reason: `SPINDLE_WASM_TIERS=${asked}` };
  }
  const node = `Node ${major(nodeVersion)}`;
  if (major(nodeVersion) <= 20) return { tiers: 'optimized', reason: `${node}: TurboFan only at every size` };
  const size = `${kib(codeBytes)} of code`;
  if (codeBytes >= TURBOFAN_CODE_LIMIT) return { tiers: 'tiered', reason: `${node}, ${size} (from ${kib(TURBOFAN_CODE_LIMIT)}): Liftoff + tiering` };
  return { tiers: turbofanTiers(nodeVersion), reason: `${node}, ${size} (under ${kib(TURBOFAN_CODE_LIMIT)}): TurboFan only` };
}

/** Whether this Node's Liftoff needs each wait moved into a call (host/liftoff-wait-calls.js). */
export function liftoffLosesWaitValues(nodeVersion = process.versions.node) {
  return major(nodeVersion) <= 20;
}
