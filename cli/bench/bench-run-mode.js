// How `spindle bench` runs the wasm series, and the words its report uses for it. By default the
// bench times optimized code: Node with V8's optimizing tier only (SPINDLE_WASM_TIERS=optimized)
// and the pool's workers started before main (--wait-for-pool), Chromium with --no-liftoff,
// Firefox without its wasm baseline compiler, WebKit with JSC's optimizing JIT (OMG) at once.
// `--as-user` runs them as a user does, with no such help: `spindle run` with default options,
// the browsers with their defaults (Liftoff, the baseline compiler or JSC's interpreter first). Either way every run also
// records its wall time from spawn to exit (cli/bench/bench.js), so the report shows what the user
// waits for beside what the program measures inside itself.

/** The run mode of `opts` (parseBenchArgs): the extra `spindle run` flags and the browser's launch. */
export function benchRunMode(opts) {
  if (!opts.asUser) process.env.SPINDLE_WASM_TIERS ??= 'optimized'; // the runs inherit the environment
  return {
    runFlags: opts.asUser ? [] : ['--wait-for-pool'],
    optimizedFromStart: !opts.asUser,
    waitForPool: !opts.asUser,
    freshCompile: opts.asUser, // each browser run compiles as a newly loaded page does
  };
}

/**
 * One line per host saying how its series ran, for results.json and the report: the compile
 * mode (V8's tiers and Spindle's --compile policy) and what the wall time covers.
 */
export function runModeWords(opts) {
  // what the runs' Node compiles: the TurboFan code made for its V8 defaults (made before the runs)
  const compile = '--compile=auto (TurboFan code from the code cache)';
  const pool = opts.asUser ? '' : ', workers started before main';
  // benchRunMode's choice, which the environment's wins over
  const tiers = process.env.SPINDLE_WASM_TIERS ?? (opts.asUser ? 'optimized, Liftoff + tiering where no code is cached' : 'optimized');
  // A page cannot set V8's flags, so --compile has no say there: Chromium's flags decide.
  const chromium = opts.asUser ? 'default flags (Liftoff first, dynamic tiering)' : '--no-liftoff (TurboFan code from the start)';
  // SpiderMonkey's counterpart of --no-liftoff is a preference (cli/browser/firefox.js)
  const firefox = opts.asUser ? 'default preferences (baseline compiler first, then Ion)'
    : 'javascript.options.wasm_baselinejit=false (Ion code from the start)';
  // and JSC's is two options (cli/browser/webkit.js); its in-place interpreter is off either way
  const webkit = opts.asUser ? 'JSC defaults but useWasmIPInt=false (wasm LLInt first, then BBQ and OMG)'
    : 'JSC useWasmLLInt=false, OMG thresholds 0 (BBQ at a first call, OMG at once; JSC cannot run OMG alone)';
  const wall = 'wall: the run in an open browser, from handing it the module to its exit';
  return {
    node: `spindle run${opts.asUser ? ' with default options' : ' --wait-for-pool'} (${compile}), ` +
      `V8 tiers: ${tiers}; wall: spawn of \`spindle run\` to its exit`,
    browser: `Chromium, ${chromium}${pool}; ${wall}`,
    firefox: `Firefox, ${firefox}${pool}; ${wall}`,
    webkit: `WebKit (WebKitGTK), ${webkit}${pool}; ${wall}`,
    native: 'clang -O2; wall: spawn to exit',
  };
}
