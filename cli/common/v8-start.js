// The V8 flags a `spindle` process runs with. V8's flags are given when Node starts and never
// changed while it runs: Node 26's V8 aborts when they change under a compiled module, and each
// change also made Node refuse its built-in code cache (docs/HOST.md, "Node versions").
// bin/spindle's first line starts Node with MAIN_STACK_FLAG and CLI_V8_FLAGS: every function
// compiled by TurboFan before main, whose code the compiled-code cache then keeps (a hit on every
// run after the first; `spindle cc` fills it after each link). A run that needs other flags runs
// in a Node of its own, started with them (startAgain): `--compile=lazy`, SPINDLE_WASM_TIERS, and
// a big module whose TurboFan code is not cached yet, which runs Liftoff + tiering while a
// background process makes that code for the next run (host/code-cache/make-turbofan-code.js).
import { MAIN_STACK_FLAG } from './main-stack.js';
import { codeSectionSize } from '../../host/compile/module-info.js';
import { processTiers, startFlagsFor, TURBOFAN_CODE_LIMIT, WASM_TIERS } from '../../host/compile/wasm-tiers.js';

/** bin/spindle's V8 flags after MAIN_STACK_FLAG, the same on every Node (tests/node-versions.test.js reads its first line). */
export const CLI_V8_FLAGS = ['--no-liftoff', '--no-wasm-dynamic-tiering', '--no-wasm-lazy-compilation'];

/** The whole V8 command line of a CLI process: what a process that fills the cache for runs must start with, flag for flag (V8 stamps code with a hash of every flag). */
export const CLI_NODE_FLAGS = [MAIN_STACK_FLAG, ...CLI_V8_FLAGS];

// Set in a process this module started, so that it never starts another.
const STARTED_AGAIN = 'SPINDLE_V8_STARTED';
const LIFELINE_FD = 3;
const WASM_FLAG = /^--(no-)?(liftoff|wasm[-_](dynamic[-_]tiering|tier[-_]up|inlining|lazy[-_]compilation))\b/;

/**
 * Whether the run of `bytes` with options `opts` (parseRunArgs) needs a Node started with other
 * V8 flags than this one: null where it runs here, else { flags, reason, turbofanMarker }
 * (turbofanMarker: a big module's TurboFan code is to be made once the run is over, under that
 * marker, host/code-cache/make-turbofan-code.js). `cachedCode(bytes)`: what the compiled-code
 * cache holds of it for this process's flags (host/compile/compilation.js, cachedCode).
 */
export async function v8StartFor(opts, bytes, cachedCode, env = process.env) {
  if (env[STARTED_AGAIN]) return null;
  const here = processTiers();
  const asked = env.SPINDLE_WASM_TIERS;
  if (asked !== undefined && !Object.hasOwn(WASM_TIERS, asked)) {
    throw new Error(`SPINDLE_WASM_TIERS=${asked}: expected ${Object.keys(WASM_TIERS).join(' or ')}`);
  }
  const compilation = opts.compilation === 'auto' ? here.compilation : opts.compilation;
  const tiers = asked ?? here.tiers;
  if (tiers !== here.tiers || compilation !== here.compilation) {
    const why = [asked && `SPINDLE_WASM_TIERS=${asked}`, opts.compilation !== 'auto' && `--compile=${opts.compilation}`].filter(Boolean).join(', ');
    return { flags: startFlagsFor(tiers, compilation), reason: why };
  }
  if (asked || opts.compilation !== 'auto' || here.tiers.startsWith('tiered') || here.compilation !== 'eager') return null;
  const codeBytes = codeSectionSize(bytes);
  if (codeBytes < TURBOFAN_CODE_LIMIT) return null;
  const found = await cachedCode(bytes);
  if (!found || found.cached) return null;
  return {
    flags: startFlagsFor('tiered', 'lazy'),
    reason: `${Math.round(codeBytes / 1024)} KiB of code (from ${TURBOFAN_CODE_LIMIT / 1024} KiB), its TurboFan code not cached: Liftoff + tiering`,
    turbofanMarker: found.marker,
  };
}

/**
 * Runs this very command again in a Node started with V8 flags `flags` (instead of this one's).
 * Where Node has process.execve (22.15 and later) the new Node replaces this process: same pid,
 * stdio, signals and exit status, nothing left to follow; `beforeExec` runs first. Node 20
 * spawns it instead, its stdin, stdout and stderr this one's, SIGINT, SIGTERM and SIGHUP passed
 * on, and resolves with its exit code or ends this process with the signal that ended it.
 */
export function startAgain(flags, { beforeExec = () => {}, env = process.env } = {}) {
  const nodeFlags = [...process.execArgv.filter((a) => !WASM_FLAG.test(a)), ...flags];
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
  const { Socket } = await import('node:net');
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
