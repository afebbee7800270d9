// The V8 stack of Node's main thread, where `spindle run` runs the C main
// (cli/run/main-thread-choice.js). V8 gives the main thread ~1 MiB and a worker ~3.8 MiB (Node's
// 4 MiB less a guard), and it reads --stack-size only when a thread starts, so bin/spindle starts
// Node with MAIN_STACK_FLAG. The flag stays as it was given (no V8 flag changes while a process
// runs, cli/common/v8-start.js); a worker's stack limit is the one Node sets from its own thread's
// stack, whatever the flag says.
const { readFileSync } = process.getBuiltinModule('node:fs');

const MAIN_STACK_KB = 3904;
export const MAIN_STACK_FLAG = `--stack-size=${MAIN_STACK_KB}`;

// V8 trusts --stack-size: past the thread's real stack a deep recursion is a segfault, not a
// RangeError. The main thread's stack is the soft RLIMIT_STACK (8 MiB by default on Linux and
// macOS); with less than the flag plus a margin for Node's own frames, main runs in a worker.
const STACK_MARGIN_KB = 512;

/** The main thread's stack limit in KiB from /proc/self/limits; Infinity where unlimited or unknown. */
function mainThreadStackKb() {
  let limits;
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return Infinity; // not Linux: the platform's default main stack (8 MiB on macOS)
  }
  const soft = /^Max stack size\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft) / 1024;
}

/** Whether Node's main thread started with a worker's stack, and really has that much. */
export const mainStackAsWorkers = process.execArgv.some((a) => a.startsWith('--stack-size=') && Number(a.slice(13)) >= MAIN_STACK_KB) &&
  mainThreadStackKb() >= MAIN_STACK_KB + STACK_MARGIN_KB;
