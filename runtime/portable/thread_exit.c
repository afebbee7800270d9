// pthread_exit on a thread other than main, in a portable module (thread_body.c says why this
// file is apart): the thread's body runs under a setjmp and pthread_exit longjmps back to it
// (clang's Wasm setjmp lowering), where runtime/core/pthread_exit.c's trampoline goes on as
// after a return.
#include <setjmp.h>
#include <stddef.h>

#include "spindle/host_imports.h"

struct thread_body {
    jmp_buf exit_point;
    void *exit_value;
};

static _Thread_local struct thread_body *running_body;

void *portable_run_catching_exit(void *(*start)(void *), void *arg)
{
    struct thread_body body;
    struct thread_body *outer = running_body;
    running_body = &body;
    void *result;
    if (setjmp(body.exit_point) == 0)
        result = start(arg);
    else
        result = body.exit_value;
    running_body = outer;
    return result;
}

_Noreturn void spindle_host_thread_exit(void *value)
{
    running_body->exit_value = value;
    longjmp(running_body->exit_point, 1);
}
