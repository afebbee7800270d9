/* The inodes' reader-writer lock: wasi-libc's (musl's) pthread_rwlock spins about a hundred
 * loads before it sleeps, a fraction of a microsecond in wasm, while a create or an unlink
 * holds its directory's lock for about a microsecond. So under contention every waiter slept,
 * and in wasm a sleep is V8's futex emulation (Atomics.wait), whose wake-up costs tens of
 * microseconds: threads creating files in one directory stopped scaling at 8 threads
 * (docs/PERFORMANCE.md, 16 cores, 2026-11-30). This lock spins for a few microseconds first.
 *
 * state: the number of readers, RW_WRITER while a writer holds it, and RW_SLEEPERS set by a
 * thread about to sleep, so that the unlock that frees the lock wakes the sleepers. Readers
 * may join while a writer waits, as in musl. */
#if !defined(__wasm__)
#define _GNU_SOURCE /* syscall(), for the futex natively */
#endif
#include "fs_core.h"

#if defined(__wasm__)
static void sleep_while(_Atomic uint32_t *state, uint32_t value)
{
    __builtin_wasm_memory_atomic_wait32((int *)state, (int)value, -1);
}
static void wake_all(_Atomic uint32_t *state)
{
    __builtin_wasm_memory_atomic_notify((int *)state, UINT32_MAX);
}
#else
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
static void sleep_while(_Atomic uint32_t *state, uint32_t value)
{
    syscall(SYS_futex, (uint32_t *)state, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}
static void wake_all(_Atomic uint32_t *state)
{
    syscall(SYS_futex, (uint32_t *)state, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
#endif

#define RW_WRITER 0x7fffffffu
#define RW_SLEEPERS 0x80000000u

static bool readable(uint32_t v) { return (v & ~RW_SLEEPERS) < RW_WRITER - 1; }
static bool writable(uint32_t v) { return v == 0; }

static void lock(struct rw_lock *lock, bool (*free_for)(uint32_t), bool writer)
{
    int spins = FS_SPINS;
    for (;;) {
        uint32_t v = atomic_load_explicit(&lock->state, memory_order_relaxed);
        if (free_for(v)) {
            if (atomic_compare_exchange_weak_explicit(&lock->state, &v, writer ? RW_WRITER : v + 1,
                                                      memory_order_acquire, memory_order_relaxed))
                return;
            continue;
        }
        if (spins > 0) {
            spins--;
            continue;
        }
        /* mark the sleep in the value slept on: the unlock that frees the lock then sees it */
        if ((v & RW_SLEEPERS) ||
            atomic_compare_exchange_weak_explicit(&lock->state, &v, v | RW_SLEEPERS, memory_order_relaxed,
                                                  memory_order_relaxed))
            sleep_while(&lock->state, v | RW_SLEEPERS);
    }
}

void rw_lock_read(struct rw_lock *l) { lock(l, readable, false); }
void rw_lock_write(struct rw_lock *l) { lock(l, writable, true); }

void rw_lock_unlock(struct rw_lock *lock)
{
    uint32_t v = atomic_load_explicit(&lock->state, memory_order_relaxed), next;
    do {
        uint32_t held = v & ~RW_SLEEPERS;
        next = held == RW_WRITER || held == 1 ? 0 : v - 1;
    } while (!atomic_compare_exchange_weak_explicit(&lock->state, &v, next, memory_order_release,
                                                    memory_order_relaxed));
    if (next == 0 && (v & RW_SLEEPERS))
        wake_all(&lock->state);
}
