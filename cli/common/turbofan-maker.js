// Has a module's TurboFan code made for the next runs, by a detached process at the lowest
// priority (host/code-cache/make-turbofan-code.js), stamped for this process's V8 flags, which
// are those of every `spindle` (none: V8's defaults, host/code-cache/defaults-stamp.js): the
// maker learns the stamp from a Node started as this one was, so that this process spends no
// time on it. `spindle run` has it started when a run that found no code ends, however it ends
// (makeCodeAtExit), `spindle cc` and `spindle cargo`'s linker after a link, so that the module's
// first run with this Node finds it.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedCode } from '../../host/compile/compilation.js';
import { codeCacheAddon } from '../../host/code-cache/addon.js';
import { claimMarker, compilingNow } from '../../host/code-cache/compile-cached.js';
import { TURBOFAN_FLAGS } from '../../host/code-cache/defaults-stamp.js';
import { addonFunction } from '../../host/platform/mount-addon.js';

const { rmSync } = process.getBuiltinModule('node:fs');

const MAKER = fileURLToPath(new URL('../../host/code-cache/make-turbofan-code.js', import.meta.url));

// The maker's command line (Node's path first), or null where the code cannot be made here (no
// addon). `claimed`: whether its marker was taken for it.
function makerCommand(wasm, { dir, key }, waitFor, claimed = false) {
  if (!codeCacheAddon().addon) return null;
  // (a profiler's options would have the stamp's Node write a profile of its own)
  const flags = process.execArgv.filter((a) => !/^--(cpu-prof|heap-prof|prof)\b/.test(a));
  return [process.execPath, ...TURBOFAN_FLAGS, MAKER, resolve(wasm), dir, key, String(waitFor), claimed ? 'claimed' : 'free', ...flags];
}

/**
 * A function that starts the making of `wasm`'s TurboFan code under `entry` (cachedCode's
 * { marker, dir, key }), once process `waitFor` (0: none) has ended; null where it cannot be
 * made here (no addon). Whatever fails in the maker leaves the run's exit status alone: the
 * next run finds no code and has it made again.
 */
export function turbofanMaker(wasm, entry, waitFor = 0) {
  const command = makerCommand(wasm, entry, waitFor, true);
  if (!command) return null;
  const [node, ...args] = command;
  return () => {
    // (its marker first: a run started right after this process finds it while the maker boots,
    // and waits for the code, awaitMaker; none where another process makes it)
    if (!claimMarker(entry.marker, waitFor)) return;
    const { spawn } = process.getBuiltinModule('node:child_process'); // (loaded only for this)
    const maker = spawn(node, args, { detached: true, stdio: 'ignore' });
    maker.on('error', () => rmSync(entry.marker, { force: true }));
    maker.unref();
    // at the lowest priority from its start, not once its code has loaded: a run may still go on
    // beside it (Linux sets a thread's priority: its threads inherit it where they start after
    // this, and the maker sets it again itself)
    try { process.getBuiltinModule('node:os').setPriority(maker.pid, 19); } catch { /* it sets it itself */ }
  };
}

/**
 * Has the maker of `wasm`'s TurboFan code under `entry` started when this process ends, by the
 * mount addon (startAtExit: at Node's exit, or at the addon's _exit from any thread, so a
 * program that a thread ends with exit() has its code made too), for nothing while the program
 * runs. Returns whether it will be; false where the addon cannot (the caller starts it itself).
 */
export function makeCodeAtExit(wasm, entry) {
  const startAtExit = addonFunction('startAtExit');
  const command = startAtExit && makerCommand(wasm, entry, process.pid);
  return Boolean(command) && startAtExit(command) === 0;
}

// How long a run waits for a maker that compiles its module now: SQLite's 1 MiB of code takes
// TurboFan 1-1.2 s on two cores.
const MAKER_WAIT_MS = 10000;

/**
 * Waits until the TurboFan code that a maker compiles now (not one that waits for a run to end)
 * is in the cache, or the maker has gone, at most MAKER_WAIT_MS: `found`, cachedCode's answer
 * with `making`. So `spindle cc x.c && spindle run x.wasm` runs TurboFan code, not Liftoff code
 * beside a compile of the same module. Returns whether it waited.
 */
export async function awaitMaker(found) {
  if (!found?.making || !compilingNow(found.making)) return false;
  const { existsSync } = process.getBuiltinModule('node:fs');
  const code = resolve(found.dir, `${found.key}.code`);
  for (const until = Date.now() + MAKER_WAIT_MS; Date.now() < until && !existsSync(code) && compilingNow(found.making);) {
    await new Promise((next) => setTimeout(next, 10));
  }
  return true;
}

/**
 * After a link: starts the making of the module's TurboFan code unless the cache has it or it is
 * being made. SPINDLE_CODE_CACHE=0 turns the cache off, as for runs; SPINDLE_CODE_CACHE_PREFILL=0
 * only this (scripts/test.sh: the suites link hundreds of modules).
 */
export async function prefillCodeCache(wasm) {
  if (process.env.SPINDLE_CODE_CACHE === '0' || process.env.SPINDLE_CODE_CACHE_PREFILL === '0') return;
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const found = await cachedCode(readFileSync(wasm), true);
  if (found?.marker) turbofanMaker(wasm, found)?.();
}

/**
 * Waits until no maker works in cache directory `dir` or one under it, at most `timeoutMs`: for
 * benches and tests, whose measured runs must neither share the CPU with a compile nor miss code
 * that is about to be made. A maker is at work while its KEY.making file is there, and from its start,
 * before it has taken that file (it boots first), while its process runs (read from /proc).
 * Returns whether they were done.
 */
export async function makersDone(dir, timeoutMs = 120000) {
  const { readdirSync } = process.getBuiltinModule('node:fs');
  const busy = () => {
    try {
      if (readdirSync(dir, { recursive: true }).some((name) => String(name).endsWith('.making'))) return true;
    } catch { /* no cache directory: nothing is made there */ }
    return makerRunsFor(dir);
  };
  for (const until = Date.now() + timeoutMs; busy();) {
    if (Date.now() > until) return false;
    await new Promise((next) => setTimeout(next, 50));
  }
  return true;
}

// Whether a maker process for cache directory `dir`, or one under it, runs: its command line names
// MAKER, then the module, then the directory (makerCommand). False where there is no /proc to read.
function makerRunsFor(dir) {
  const { readdirSync, readFileSync } = process.getBuiltinModule('node:fs');
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
  const top = resolve(dir);
  return pids.some((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      const at = args.indexOf(MAKER);
      const its = at >= 0 ? resolve(args[at + 2] ?? '') : null;
      return its !== null && (its === top || its.startsWith(`${top}/`));
    } catch {
      return false; // (gone meanwhile, or another user's)
    }
  });
}
