/* `spindle cc --fs=js`: the C main may run on the host's main thread (Node), where the JS
 * filesystem lives. Other threads' file calls are proxied to that thread and wait for it, so
 * it must keep serving them whenever it blocks, or a pthread doing I/O while main sits in
 * pthread_join (or a mutex, condvar, semaphore, barrier, stdio lock...) would deadlock.
 *
 * Every blocking wait in wasi-libc goes through __wasilibc_futex_wait, which calls
 * __wasilibc_futex_wait_maybe_busy instead of memory.atomic.wait32 when a program defines it
 * (a weak hook). On the host thread this hands the wait to the host, which serves proxied
 * calls between short waits on the same address; on every other thread it is the plain wait.
 * Linked with -u __wasilibc_futex_wait_maybe_busy (a weak reference pulls nothing from an
 * archive). Importing spindle.jsfs_host_thread_wait is also how the host recognises a
 * --fs=js module. */
#include <errno.h>
#include <stdint.h>

#include "spindle/host_imports.h"

/* Constructors run on the C main thread only, so only its copy becomes 1. */
static _Thread_local int serves_files;

__attribute__((constructor)) static void note_host_thread(void)
{
    serves_files = spindle_host_jsfs_on_host_thread();
}

int __wasilibc_futex_wait_maybe_busy(volatile void *addr, int op, int expected, int64_t max_wait_ns);

int __wasilibc_futex_wait_maybe_busy(volatile void *addr, int op, int expected, int64_t max_wait_ns)
{
    (void)op; /* wasm has one kind of wait */
    if (serves_files)
        return spindle_host_jsfs_host_thread_wait(addr, expected, max_wait_ns);
    int r = __builtin_wasm_memory_atomic_wait32((int *)addr, expected, max_wait_ns);
    return r == 0 ? 0 : r == 1 ? -EAGAIN : -ETIMEDOUT;
}
