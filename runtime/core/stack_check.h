// Per-thread stack limits for the C stack check (stack_check.c).
#ifndef SPINDLE_CORE_STACK_CHECK_H
#define SPINDLE_CORE_STACK_CHECK_H

// Check this thread's stack against its pthread bounds from now on.
void spindle_stack_check_thread_start(void);
// The instance will run another thread next: no limit until it sets its own.
void spindle_stack_check_thread_end(void);

#endif
