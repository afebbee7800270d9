// Thread bodies in a portable module (docs/PORTABLE.md). runtime/core/pthread_exit.c runs each
// start routine through spindle.run_thread_body, and pthread_exit asks spindle.thread_exit to
// unwind back there. A standard WASI host has neither: the body runs here, and the thread itself
// still starts from the standard wasi_thread_start export of wasi-libc.
// Unwinding needs Wasm exception handling (setjmp/longjmp), which not every host runs
// (wasmtime has no legacy exceptions), so thread_exit.c, which does it, is linked only into
// programs that call pthread_exit (its spindle_host_thread_exit is what pthread_exit calls).
#include <stddef.h>

#include "spindle/host_imports.h"

void *portable_run_catching_exit(void *(*start)(void *), void *arg) __attribute__((weak));

void *spindle_host_run_thread_body(void *(*start)(void *), void *arg)
{
    return portable_run_catching_exit ? portable_run_catching_exit(start, arg) : start(arg);
}

// A standard WASI host starts each thread on its own, with no pool of workers to wait for.
void spindle_host_thread_slot_wait(void) {}
