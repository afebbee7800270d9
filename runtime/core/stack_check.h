// Per-thread stack limits for the C stack check (stack_check.c).
#ifndef SPINDLE_CORE_STACK_CHECK_H
#define SPINDLE_CORE_STACK_CHECK_H

// What the host's stack overflow message says sets the thread's stack size (host/threads/stack-overflow.js,
// runtime/portable/stack_overflow.c; 0 and 1 were the old "thread" and "main").
enum {
    SPINDLE_STACK_DEFAULT = 0,         // a thread at the default size: --thread-stack-size
    SPINDLE_STACK_MAIN = 1,            // the main thread: --stack-size
    SPINDLE_STACK_CHOSEN = 2,          // a thread whose creator chose another size
    SPINDLE_STACK_DEFAULT_OR_RUST = 3, // at the default size in a Rust program: either may apply
};

// Check this thread's stack against its pthread bounds from now on.
void spindle_stack_check_thread_start(void);
// The instance will run another thread next: no limit until it sets its own.
void spindle_stack_check_thread_end(void);

#endif
