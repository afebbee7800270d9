// The V8 flags a `spindle` process runs with: none. Any V8 flag makes Node refuse its built-in
// code cache (its own modules compiled from source in the main thread and in every worker,
// docs/HOST.md, "Eleventh pass"), and V8's flags cannot change while a process runs (Node 26's
// V8 aborts, "Node versions"). So bin/spindle starts Node with V8's defaults, and a module's runs
// load TurboFan code made for them by another Node (host/code-cache/defaults-stamp.js): a hit on
// every run after the first, which runs Liftoff + tiering while that code is made for the next
// (`spindle cc` has it made after each link). A run that needs other flags runs in a Node of its
// own, started with them (startAgain): `--compile=eager` without cached code, SPINDLE_WASM_TIERS,
// and Node 20's Liftoff, which loses values across waits.
import { cachedCode as cachedCodeHere, runsDefaults } from '../../host/compile/compilation.js';
import { liftoffLosesWaitValues, processTiers, startFlagsFor, WASM_TIERS } from '../../host/compile/wasm-tiers.js';
import { awaitMaker } from './turbofan-maker.js';
import { isWasmFlag } from './wasm-flag.js';

/** The V8 flags of bin/spindle's Node: none (the processes the CLI starts with `node` take these too). */
export const CLI_NODE_FLAGS = [];

// Set in a process this module started, so that it never starts another.
const STARTED_AGAIN = 'SPINDLE_V8_STARTED';
const LIFELINE_FD = 3;

/**
 * Whether the run of `bytes` with options `opts` (parseRunArgs) needs a Node started with other
 * V8 flags than this one: null where it runs here, else { flags, reason, makeCode }, makeCode the
 * cache entry whose TurboFan code, for this process, is to be made (cli/common/turbofan-maker.js)
 * or null. `cachedCode(bytes)`: what the compiled-code cache holds of it for this process
 * (host/compile/compilation.js, cachedCode).
 */
export async function v8StartFor(opts, bytes, cachedCode = (wire) => cachedCodeHere(wire, opts.codeCache), env = process.env) {
  if (env[STARTED_AGAIN]) return null;
  const here = processTiers();
  const asked = env.SPINDLE_WASM_TIERS;
  if (asked !== undefined && !Object.hasOwn(WASM_TIERS, asked)) {
    throw new Error(`SPINDLE_WASM_TIERS=${asked}: expected ${Object.keys(WASM_TIERS).join(' or ')}`);
  }
  // TurboFan asked for, and its code made for this Node's V8 defaults cached: that, here
  const optimizedHere = asked === 'optimized' && opts.compilation !== 'lazy' && runsDefaults() && (await cachedCode(bytes))?.cached;
  if ((asked && !optimizedHere) || !runsDefaults()) {
    // compilers asked for, or a Node started with wasm flags by hand: those, as they are
    const compilation = opts.compilation === 'auto' ? here.compilation : opts.compilation;
    const tiers = asked ?? here.tiers;
    if (tiers === here.tiers && compilation === here.compilation) return null;
    const why = [asked && `SPINDLE_WASM_TIERS=${asked}`, opts.compilation !== 'auto' && `--compile=${opts.compilation}`].filter(Boolean).join(', ');
    return { flags: startFlagsFor(tiers, compilation), reason: why, makeCode: null };
  }
  // V8's defaults: TurboFan code made for them, where the cache has it
  if (opts.compilation === 'lazy') return null;
  let found = await cachedCode(bytes);
  if (await awaitMaker(found)) found = await cachedCode(bytes);
  if (found?.cached) return null;
  const makeCode = found?.marker ? found : null;
  const turbofan = startFlagsFor('optimized', 'eager');
  if (opts.compilation === 'eager') return { flags: turbofan, reason: '--compile=eager, no TurboFan code cached', makeCode };
  if (liftoffLosesWaitValues()) {
    return { flags: turbofan, reason: `Node ${process.versions.node}'s Liftoff loses values across waits, no TurboFan code cached`, makeCode };
  }
  return null; // Liftoff + tiering, and the code made after the run (cli/run/run.js)
}

/**
 * Runs this very command again in a Node started with V8 flags `flags` (instead of this one's).
 * Where Node has process.execve (22.15 and later) the new Node replaces this process: same pid,
 * stdio, signals and exit status, nothing left to follow; `beforeExec` runs first. Node 20
 * spawns it instead, its stdin, stdout and stderr this one's, SIGINT, SIGTERM and SIGHUP passed
 * on, and resolves with its exit code or ends this process with the signal that ended it.
 */
export function startAgain(flags, { beforeExec = () => {}, env = process.env } = {}) {
  const nodeFlags = [...process.execArgv.filter((a) => !isWasmFlag(a)), ...flags];
  const args = [...nodeFlags, process.argv[1], ...process.argv.slice(2)];
  if (typeof process.execve === 'function') {
    beforeExec();
    process.execve(process.execPath, [process.execPath, ...args], { ...env, [STARTED_AGAIN]: '1' });
  }
  // fd 3: a pipe only this process holds open, so the run ends when this process dies, even of
  // SIGKILL (followParent)
  // (child_process and os are loaded here, not by every run: ~4 ms of a start)
  const { spawn } = process.getBuiltinModule('node:child_process');
  const { constants } = process.getBuiltinModule('node:os');
  const child = spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'pipe'], env: { ...env, [STARTED_AGAIN]: 'spawned' } });
  beforeExec();
  const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const pass = (signal) => child.kill(signal);
  for (const signal of forwarded) process.on(signal, pass);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      for (const s of forwarded) process.off(s, pass);
      if (signal) {
        process.kill(process.pid, signal); // this process ends as the run did
        resolve(128 + constants.signals[signal]);
      } else resolve(code);
    });
  });
}

/**
 * In a run that startAgain spawned (Node 20): follows the process that started it, which ends
 * this one as soon as that one has gone (its end of the lifeline pipe closes), even of SIGKILL,
 * as the one process the run was before would have. Node's main thread hears of that only from
 * its event loop, so the C main must then run in a worker: returns true where it must.
 */
export async function followParent(env = process.env) {
  if (env[STARTED_AGAIN] !== 'spawned') return false;
  const { Socket } = process.getBuiltinModule('node:net');
  let lifeline;
  try {
    lifeline = new Socket({ fd: LIFELINE_FD, readable: true, writable: false });
  } catch {
    return false; // started by hand with the variable set: no parent to follow
  }
  lifeline.on('error', () => {});
  lifeline.on('close', () => process.kill(process.pid, 'SIGKILL'));
  lifeline.resume();
  lifeline.unref();
  return true;
}
