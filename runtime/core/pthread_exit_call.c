// pthread_exit (pthread_exit.c has the trampoline it unwinds to). In a file of its own so that
// a program that never calls it does without what it needs from the host: in a portable module
// (runtime/portable/thread_exit.c) that is Wasm exception handling, which not every host runs.
#include <pthread.h>
#include <stdlib.h>

#include "spindle/host_imports.h"
#include "thread_exit.h"

_Noreturn void pthread_exit(void *value)
{
    while (spindle_cleanup_top) {
        struct __ptcb *cb = spindle_cleanup_top;
        spindle_cleanup_top = cb->__next;
        cb->__f(cb->__x);
    }
    if (spindle_thread_is_main()) {
        // POSIX: the process goes on until its last thread ends, then exits with status 0.
        spindle_wait_for_other_threads();
        exit(0);
    }
    spindle_host_thread_exit(value);
}
