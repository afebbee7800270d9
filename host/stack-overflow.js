// How a thread that ran past its C stack ends the program. `spindle cc` checks every move of
// the stack pointer (cli/stack-check.js, runtime/core/stack_check.c); a move below the
// running thread's stack calls the `spindle.stack_overflow` import, which throws this.

import { trapWords } from './trap-text.js';

/** Thrown by the stack_overflow import; ends the program like a trap. */
export class StackOverflow extends Error {
  constructor(stackBytes, isMain) {
    // a thread's usable stack is a few bytes under its --thread-stack-size (alignment)
    super(`stack overflow (limit ${Math.round(stackBytes / 1024)} KiB, raise it with ${isMain ? '--stack-size' : '--thread-stack-size'})`);
  }
}

/** The import: stack size in bytes, and whether it is the main thread's. */
export function stackOverflow(stackBytes, isMain) {
  throw new StackOverflow(stackBytes >>> 0, isMain !== 0);
}

/** What a thread's failure says after `thread N: `. */
export function failureMessage(err) {
  if (err instanceof StackOverflow) return err.message;
  const words = trapWords(err); // the same words in V8 and SpiderMonkey
  return words ? `trap: ${words}` : String(err?.stack || err);
}
