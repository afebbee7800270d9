// Thread bodies in a portable module (docs/PORTABLE.md). runtime/core/pthread_exit.c runs each
// start routine through spindle.run_thread_body, and pthread_exit asks spindle.thread_exit to
// unwind back there. A standard WASI host has neither, so the body runs here, under a setjmp,
// and pthread_exit longjmps back to it (clang's Wasm setjmp lowering: Wasm exception handling).
// The thread itself still starts from the standard wasi_thread_start export of wasi-libc.
#include <setjmp.h>
#include <stddef.h>

struct thread_body {
    jmp_buf exit_point;
    void *exit_value;
};

static _Thread_local struct thread_body *running_body;

void *spindle_host_run_thread_body(void *(*start)(void *), void *arg)
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
