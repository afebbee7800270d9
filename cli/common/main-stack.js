// The V8 stack of Node's main thread, where `spindle run` runs the C main
// (cli/run/main-thread-choice.js). V8 gives the main thread ~1 MiB and a worker ~3.8 MiB (Node's
// 4 MiB less a guard). `--stack-size` would give main the same, but any V8 flag makes Node refuse
// its built-in code cache (docs/HOST.md, "Eleventh pass"), so the code cache's addon sets main's
// limit through V8's API instead (setStackLimit), once, when the C main is to run here.
import { codeCacheAddon } from '../../host/code-cache/addon.js';

const { readFileSync } = process.getBuiltinModule('node:fs');

export const MAIN_STACK_KB = 3904;

// V8 trusts the limit: past the thread's real stack a deep recursion is a segfault, not a
// RangeError. The main thread's stack is the soft RLIMIT_STACK (8 MiB by default on Linux and
// macOS); with less than the limit plus a margin for Node's own frames, main runs in a worker.
const STACK_MARGIN_KB = 512;

/**
 * The main thread's stack limit in KiB, from the code cache's addon (getrlimit) or else
 * /proc/self/limits; Infinity where unlimited or unknown.
 */
function mainThreadStackKb() {
  const fromAddon = codeCacheAddon().addon?.stackRlimitKib?.();
  if (typeof fromAddon === 'number') return fromAddon < 0 ? Infinity : fromAddon;
  let limits;
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return Infinity; // not Linux: the platform's default main stack (8 MiB on macOS)
  }
  const soft = /^Max stack size\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft) / 1024;
}

let given;
/**
 * Whether Node's main thread has a worker's stack: it really has that much, and V8's limit is
 * that deep (set here the first time, or by a `--stack-size` Node was started with).
 */
export function mainStackAsWorkers() {
  if (given !== undefined) return given;
  given = false;
  if (mainThreadStackKb() < MAIN_STACK_KB + STACK_MARGIN_KB) return given;
  const flag = process.execArgv.findLast((a) => a.startsWith('--stack-size='));
  if (flag && Number(flag.slice(13)) >= MAIN_STACK_KB) given = true;
  else if (!flag) given = codeCacheAddon().addon?.setStackLimit?.(MAIN_STACK_KB) === true;
  return given;
}
