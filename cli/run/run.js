// `spindle run [--browser[=chromium|firefox|webkit]] [options] app.wasm [args...]`: runs a module with
// real threads in Node (default) or in a headless browser, and returns the program's exit code.
import { basename, resolve } from 'node:path';
import { cachedCode, runsDefaults } from '../../host/compile/compilation.js';
import { startEarlyWorker } from '../../host/program/early-worker.js';
import { checkMountPaths } from '../../host/mount/index.js';
import { v8OnlyRefusal } from '../browser/browser-names.js';
import { applyRunOptions, programOptions, runUsage, scanRunArgs } from './run-options.js';
import { packPreloadFiles } from '../common/preload-files.js';
import { userEnv } from '../common/js-compile-cache.js';
import { mainRunsHere } from './main-thread-choice.js';
import { earlyStart, terminateEarly } from './run-early.js';
import { followParent, startAgain, v8StartFor } from '../common/v8-start.js';
import { makeCodeAtExit, turbofanMaker } from '../common/turbofan-maker.js';
import { escapeControls } from '../common/terminal-text.js';
import { readableStack } from '../common/readable-stack.js';
import { compileHint, NO_COMPILE_HINT } from './compile-hint.js';
import { liftoffLosesWaitValues } from '../../host/compile/wasm-tiers.js';

const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
// (not performance.now(): its first use loads perf_hooks, ~2 ms of a hello world)
const msSince = (startNs) => Number(process.hrtime.bigint() - startNs) / 1e6;

/**
 * The options before app.wasm, then the module and its arguments; `help` if --help was asked.
 * `scan`: the arguments' scan where the early start made it (cli/run/run-early.js).
 */
export function parseRunArgs(argv, scan = null) {
  scan ??= scanRunArgs(argv);
  const opts = applyRunOptions(scan);
  if (opts.help) return opts;
  const i = scan.index;
  if (i >= argv.length) throw new Error(`no module to run\n${runUsage}`);
  opts.wasm = argv[i];
  opts.args = [basename(argv[i]), ...argv.slice(i + 1)];
  if (opts.inheritEnv) opts.env = { ...userEnv(), ...opts.env };
  if (opts.browser && opts.browser !== 'chromium' && opts.compilation !== 'auto') throw new Error(v8OnlyRefusal(`--compile=${opts.compilation}`, opts.browser));
  checkMounts(opts);
  return opts;
}

// What can be told before the module runs: the host's own check of the mount points, then what
// only the command line gets wrong (a mount for the other host, a missing directory).
function checkMounts(opts) {
  checkMountPaths(opts.mounts);
  for (const m of opts.mounts) {
    if (m.opfs !== undefined) {
      if (!opts.browser) throw new Error(`--mount ${m.path}=opfs: OPFS is a browser file system; add --browser`);
      continue;
    }
    if (opts.browser) throw new Error(`--mount ${m.path}=${m.hostDir}: host directories are mounted in Node only (use opfs with --browser)`);
    let st;
    try { st = statSync(m.hostDir); } catch { throw new Error(`--mount ${m.path}: host directory ${m.hostDir} does not exist`); }
    if (!st.isDirectory()) throw new Error(`--mount ${m.path}: ${m.hostDir} is not a directory`);
  }
}

/**
 * Runs `spindle run argv`; `early`: the workers cli/run/run-early.js started for it (started here
 * where none is given), `from`: where this code was loaded from (cli/run/run-bundle.js),
 * `afterProgram`: called once the program has ended, where one ran here.
 */
export async function run(argv, early = null, from = 'the modules (no current bundle: scripts/build-run-bundle.js makes it)', afterProgram = null) {
  const opts = parseRunArgs(argv, early?.scan);
  if (opts.help) { process.stdout.write(runUsage); return 0; }
  if (opts.preload.length) opts.preloadBytes = packPreloadFiles(opts.preload, '--preload');
  // (by URL: the browser's driver stays out of the run's bundle, which bin/spindle never runs in a browser)
  if (opts.browser) return (await import(new URL('./run-browser.js', import.meta.url).href)).runInBrowser(opts);
  // V8's flags are this process's: a run that needs others runs in a Node started with them
  // (cli/common/v8-start.js)
  early ??= await earlyStart(argv);
  const { hint } = early;
  // A module whose last runs were short compiles lazily instead of loading its TurboFan code
  // (cli/run/compile-hint.js), where nothing else decides (V8's defaults, auto) and its runs had
  // no threads: threads' workers boot beside the load, and each thread would compile lazily too.
  const lazyMayPay = opts.compilation === 'auto' && runsDefaults() && !process.env.SPINDLE_WASM_TIERS && !liftoffLosesWaitValues() &&
    Boolean(hint?.last?.every((used) => used === 0));
  const compileChoice = lazyMayPay ? compileHint(opts.wasm, opts.codeCache) : NO_COMPILE_HINT;
  const compilation = compileChoice.choice === 'lazy' ? 'lazy' : opts.compilation;
  const bytes = readFileSync(opts.wasm);
  const start = await v8StartFor({ ...opts, compilation }, bytes);
  // a maker of the module's TurboFan code started now, which waits for this pid to end (a restart keeps it)
  const makeCode = (entry) => entry?.marker && turbofanMaker(opts.wasm, entry, process.pid)?.();
  if (start) {
    terminateEarly(early);
    if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] V8 flags: a Node started with ${start.flags.join(' ')} (${start.reason})\n`);
    makeCode(start.makeCode);
    return startAgain(start.flags);
  }
  // (kept for the next run of this command line, whose start compiles it early: early-replay.js)
  const wasmPath = resolve(opts.wasm);
  early.keep(compilation === 'lazy' ? wasmPath : null);
  const mainInWorker = await followParent();
  // The C main runs on this thread where it can (cli/run/main-thread-choice.js). Else its worker
  // boots while the rest of the host loads (docs/HOST.md, "Start-up").
  const here = !early.mainWorker && !mainInWorker && mainRunsHere(argv);
  const earlyWorker = here ? null : early.mainWorker ?? await startEarlyWorker();
  // as many threads' workers as this module used last time (one on its first run) are booting
  const { threadWorkers: earlyThreadWorkers } = early;
  const { compile, createProgram } = await import('../../host/index.js');
  // (what loading the code costs: reading, checking and deserializing it; not a wait for its maker)
  const loadStart = process.hrtime.bigint();
  const { compiled: compiledEarly } = early;
  const lazyModule = compiledEarly?.path === wasmPath && compiledEarly.bytes.equals(bytes) ? compiledEarly.module : undefined;
  const compiled = await compile(bytes, { compilation, codeCache: opts.codeCache, lazyModule });
  const loadMs = msSince(loadStart);
  // no code cached: it is made for the next run once this one has ended, however it ends
  const missed = compiled.codeCache === 'miss' ? await cachedCode(bytes, opts.codeCache) : null;
  const makeAfterMain = missed?.marker && !makeCodeAtExit(opts.wasm, missed) ? missed : null;
  const program = await createProgram(compiled, { ...programOptions(opts), earlyWorker, earlyThreadWorkers,
    waitForThreadWorkers: Boolean(hint?.last), mainThread: here ? 'here' : 'worker', files: false });
  if (process.env.SPINDLE_DEBUG) {
    const workerCode = early?.workerCode?.();
    process.stderr.write(`[spindle] JavaScript: ${from}${workerCode ? `, thread workers' code: ${workerCode}` : ''}\n[spindle] compilation: ${compiled.compilation} (--compile=${opts.compilation}${
      lazyModule && compiled.compilation === 'lazy' ? '; begun before the run bundle loaded' : ''}), ` +
      `V8 tiers: ${compiled.tiers} (${compiled.tiersReason})\n[spindle] code cache: ${compileChoice.choice === 'lazy' ? `not read: ${compileChoice.why}` : compiled.codeCache}${
        compiled.codeCacheMiss ? ` (${escapeControls(compiled.codeCacheMiss)})` : ''}\n` +
      `[spindle] threads' workers started early: ${earlyThreadWorkers.length} (${!hint ? 'no hint: no code cache'
        : hint.last === undefined ? 'the module\'s first run here' : `its last runs here used ${hint.last.join(', ')}`}${
        early.beforeBundle ? `; ${early.beforeBundle} before the run bundle` : ''})\n` +
      `[spindle] C main: ${program.mainThread === 'here' ? "on Node's main thread" : 'in a worker'}\n`);
  }
  const mainStart = process.hrtime.bigint();
  program.start();
  const result = await program.exited;
  hint?.record(program.workersUsed());
  compileChoice.record({ mode: compiled.codeCache === 'hit' ? 'turbofan' : compiled.compilation === 'lazy' ? 'lazy' : null,
    loadMs, mainMs: msSince(mainStart) });
  program.dispose();
  afterProgram?.();
  makeCode(makeAfterMain);
  if (result.trap) process.stderr.write(`spindle: ${readableStack(result.trap)}\n`);
  return result.exitCode;
}
