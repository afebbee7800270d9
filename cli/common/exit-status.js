// How a command's process ends. After process.exit's 'exit' listeners, Node tears itself down:
// it stops its workers, disposes of V8's platform (joining its threads), runs C++ destructors and
// atexit handlers: ~3 ms of a hello world's 55 on a 2-core VM, more with threads' workers alive.
// None of it is the command's: every file Spindle writes is written with synchronous calls before
// its command resolves. So where Node itself would write nothing at its exit, the process ends by
// the mount addon's _exit(2) once every 'exit' listener has run (host/platform/process-exit.js).
// Node writes at its exit: CPU and heap profiles, V8 coverage (flags, NODE_OPTIONS or
// NODE_V8_COVERAGE), and its module cache where this thread has it on, which is flushed first.
import { processExit } from '../../host/platform/process-exit.js';
import { isWasmFlag } from './wasm-flag.js';

/** Whether Node may write something when it ends: a flag of its own or of V8 that is not a wasm tier's. */
export function nodeWritesAtExit(env = process.env, execArgv = process.execArgv) {
  return Boolean(env.NODE_V8_COVERAGE || env.NODE_OPTIONS?.trim()) || !execArgv.every(isWasmFlag);
}

/**
 * Ends the process with `code` (process.exit's listeners run first). `moduleCacheHere`: whether
 * Node's module cache is on in this thread (its files are written before the process ends).
 */
export function exitWith(code, { moduleCacheHere }) {
  const exitNow = nodeWritesAtExit() ? null : processExit();
  if (exitNow && (!moduleCacheHere || flushModuleCache())) {
    // (the last listener: process.exit runs them in the order they came; the code is theirs to change)
    process.once('exit', (exiting) => {
      if (!outputQueued()) exitNow(process.exitCode ?? exiting);
    });
  }
  process.exit(code);
}

/** Writes what Node's module cache holds now; false where this Node cannot (before 22.10). */
function flushModuleCache() {
  const { flushCompileCache } = process.getBuiltinModule('node:module');
  if (typeof flushCompileCache !== 'function') return false;
  flushCompileCache();
  return true;
}

/**
 * Whether process.stdout or process.stderr still queue output, which Node finishes at its exit:
 * never on Linux, where Node writes stdio to files, pipes and terminals synchronously (and where
 * asking would create streams a run may never have used); a pipe's can elsewhere.
 */
function outputQueued() {
  return process.platform !== 'linux' && Boolean(process.stdout.writableLength || process.stderr.writableLength);
}
