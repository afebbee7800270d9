// pthread_exit and cleanup handlers, which this wasi-libc leaves out (wasm has no stack
// unwinding without the exception-handling proposal). Spindle starts every thread through a
// trampoline that enters the start routine via the host; pthread_exit (pthread_exit_call.c)
// asks the host to throw, which unwinds the wasm frames back to the trampoline, and the thread
// then ends through libc's normal path (TSD destructors, join, detach) with the exit value.
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "spindle/host_imports.h"
#include "stack_check.h"
#include "thread_exit.h"

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// The host calls back in here to run the start routine, so the unwind stops at its call.
__attribute__((export_name("__spindle_invoke_start"))) void *spindle_invoke_start(void *(*start)(void *),
                                                                                  void *arg)
{
    return start(arg);
}

static uintptr_t stack_pointer(void)
{
    uintptr_t sp;
    __asm__ volatile(".globaltype __stack_pointer, i32\n global.get __stack_pointer\n local.set %0"
                     : "=r"(sp));
    return sp;
}

static void set_stack_pointer(uintptr_t sp)
{
    __asm__ volatile(".globaltype __stack_pointer, i32\n local.get %0\n global.set __stack_pointer"
                     :
                     : "r"(sp));
}

struct start_request {
    void *(*start)(void *);
    void *arg;
};

// Threads other than main still running, for pthread_exit on the main thread.
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t live_changed = PTHREAD_COND_INITIALIZER;
static int live_threads;
static pthread_t main_thread;

__attribute__((constructor)) static void remember_main_thread(void) { main_thread = pthread_self(); }

static void count_live(int delta)
{
    pthread_mutex_lock(&live_lock);
    live_threads += delta;
    pthread_cond_broadcast(&live_changed);
    pthread_mutex_unlock(&live_lock);
}

_Thread_local struct __ptcb *spindle_cleanup_top;

static void *trampoline(void *p)
{
    struct start_request request = *(struct start_request *)p;
    free(p);
    uintptr_t sp = stack_pointer();
    spindle_stack_check_thread_start();
    void *result = spindle_host_run_thread_body(request.start, request.arg);
    set_stack_pointer(sp); // pthread_exit unwound frames that did not restore it
    spindle_stack_check_thread_end();
    spindle_cleanup_top = 0;
    count_live(-1);
    return result;
}

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    // Waits, briefly, where every thread's worker is busy but one whose thread is ending: here,
    // before libc's pthread_create takes its thread list lock, which that thread still needs to
    // end (host/threads/control.js, waitForEndingSlot). Else a program that joins its threads and creates
    // the next ones at once booted a new worker (20-60 ms) for each thread created too soon.
    spindle_host_thread_slot_wait();
    struct start_request *request = malloc(sizeof *request);
    if (!request)
        return EAGAIN;
    request->start = start;
    request->arg = arg;
    count_live(+1);
    int err = __real_pthread_create(thread, attr, trampoline, request);
    if (err) {
        free(request);
        count_live(-1);
    }
    return err;
}

void __wrap__pthread_cleanup_push(struct __ptcb *cb, void (*f)(void *), void *x)
{
    cb->__f = f;
    cb->__x = x;
    cb->__next = spindle_cleanup_top;
    spindle_cleanup_top = cb;
}

void __wrap__pthread_cleanup_pop(struct __ptcb *cb, int run)
{
    spindle_cleanup_top = cb->__next;
    if (run)
        cb->__f(cb->__x);
}

bool spindle_thread_is_main(void) { return pthread_equal(pthread_self(), main_thread); }

void spindle_wait_for_other_threads(void)
{
    pthread_mutex_lock(&live_lock);
    while (live_threads > 0)
        pthread_cond_wait(&live_changed, &live_lock);
    pthread_mutex_unlock(&live_lock);
}
