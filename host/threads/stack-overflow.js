// How a thread that ran past its C stack ends the program. `spindle cc` checks every move of
// the stack pointer (cli/build/stack-check.js, runtime/core/stack_check.c); a move below the
// running thread's stack calls the `spindle.stack_overflow` import, which throws this.

import { ProgramFailure } from './program-failure.js';
import { trapWords } from './trap-text.js';

// How to raise the limit, by what set the thread's stack size (runtime/core/stack_check.h): the
// link's flags size main and C's default threads; a thread created with a size of its own, as
// every Rust std::thread is, needs that size raised.
const raiseIt = [
  'raise it with --thread-stack-size',
  'raise it with --stack-size',
  'raise the size the thread is created with (pthread_attr_setstacksize; Rust: thread::Builder::stack_size or RUST_MIN_STACK)',
  'raise it with --thread-stack-size, or for a Rust std::thread with thread::Builder::stack_size or RUST_MIN_STACK',
];

/** Thrown by the stack_overflow import; ends the program like a trap. */
export class StackOverflow extends ProgramFailure {
  constructor(stackBytes, stackKind) {
    // a thread's usable stack is a few bytes under the size asked for (alignment)
    super(`stack overflow (limit ${Math.round(stackBytes / 1024)} KiB, ${raiseIt[stackKind] ?? raiseIt[0]})`);
  }
}

/** The import: stack size in bytes, and what set it (0: C's default, 1: main, 2: its creator, 3: 0 or Rust's std). */
export function stackOverflow(stackBytes, stackKind) {
  throw new StackOverflow(stackBytes >>> 0, stackKind);
}

/** What a thread's failure says after `thread N: `. */
export function failureMessage(err) {
  if (err instanceof ProgramFailure) return err.message;
  const words = trapWords(err); // the same words in V8 and SpiderMonkey
  return words ? `trap: ${words}` : String(err?.stack || err);
}
