// What pthread_exit (pthread_exit_call.c) shares with the thread trampoline (pthread_exit.c).
#ifndef SPINDLE_CORE_THREAD_EXIT_H
#define SPINDLE_CORE_THREAD_EXIT_H

#include <pthread.h>
#include <stdbool.h>

// The innermost pthread_cleanup_push of this thread (pthread.h's struct __ptcb chain).
extern _Thread_local struct __ptcb *spindle_cleanup_top;
bool spindle_thread_is_main(void);
// Returns once every thread other than main has ended.
void spindle_wait_for_other_threads(void);

#endif
