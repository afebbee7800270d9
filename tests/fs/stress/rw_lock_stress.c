/* The inodes' reader-writer lock (runtime/fs/core/rw_lock.c) on its own: threads taking it shared
 * and exclusive at random, some holds long enough (a sleep inside) that the others stop spinning
 * and sleep on the lock word, so the wake-up path runs too. Run under ThreadSanitizer,
 * AddressSanitizer+UBSan and as wasm (memory.atomic.wait32 there). Checked:
 *  - a writer is alone: no reader and no other writer while it holds the lock;
 *  - readers overlap (shared holds happen at once at least once);
 *  - others went to sleep on the lock during long holds (its sleepers bit, 0x80000000 in
 *    rw_lock.c, was seen set), every lock is given back (the final state is 0) and nobody sleeps
 *    for good (the run ends);
 *  - a plain counter that only writers change, without atomics, ends at the writers' count. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "../../../runtime/fs/core/fs_core.h"
#include "../test_util.h"

#define THREADS 8
#define ROUNDS 20000
#define LONG_HOLD_EVERY 997 /* one hold in this many sleeps 200 us: past the spin, so others sleep */

static struct rw_lock lock;
static atomic_int readers, writers, most_readers;
static atomic_long violations, reads_done, slept_on;
static long guarded; /* changed by writers only: a lost exclusion shows as a wrong total */
static long writes_done[THREADS];

static void hold_a_while(unsigned round)
{
    if (round % LONG_HOLD_EVERY == 0) {
        struct timespec pause = {0, 200000};
        nanosleep(&pause, NULL);
        if (atomic_load(&lock.state) & 0x80000000u)
            atomic_fetch_add(&slept_on, 1);
    }
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    unsigned seed = 2654435761u * (unsigned)(id + 1);
    for (unsigned r = 0; r < ROUNDS; r++) {
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) % 4 == 0) {
            rw_lock_write(&lock);
            if (atomic_fetch_add(&writers, 1) != 0 || atomic_load(&readers) != 0)
                atomic_fetch_add(&violations, 1);
            guarded++;
            writes_done[id]++;
            hold_a_while(r);
            atomic_fetch_sub(&writers, 1);
            rw_lock_unlock(&lock);
        } else {
            rw_lock_read(&lock);
            int now = atomic_fetch_add(&readers, 1) + 1;
            if (atomic_load(&writers) != 0)
                atomic_fetch_add(&violations, 1);
            for (int most = atomic_load(&most_readers); now > most;)
                if (atomic_compare_exchange_weak(&most_readers, &most, now))
                    break;
            hold_a_while(r);
            atomic_fetch_sub(&readers, 1);
            rw_lock_unlock(&lock);
            atomic_fetch_add(&reads_done, 1);
        }
    }
    return NULL;
}

/* A lock that loses a wake-up or a holder hangs its waiters: fail instead of hanging the suite. */
static atomic_bool finished;
static void *watchdog(void *arg)
{
    (void)arg;
    for (int waited_ms = 0; !atomic_load(&finished); waited_ms += 10) {
        if (waited_ms >= 120000) {
            fprintf(stderr, "rw lock stress: still running after 120 s (a sleeper never woken?)\n");
            exit(1);
        }
        struct timespec tick = {0, 10000000};
        nanosleep(&tick, NULL);
    }
    return NULL;
}

int main(void)
{
    pthread_t dog;
    CHECK(pthread_create(&dog, NULL, watchdog, NULL) == 0);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    atomic_store(&finished, true);
    pthread_join(dog, NULL);
    long writes = 0;
    for (int i = 0; i < THREADS; i++)
        writes += writes_done[i];
    CHECK(atomic_load(&violations) == 0);
    CHECK(guarded == writes);
    CHECK(writes + atomic_load(&reads_done) == (long)THREADS * ROUNDS);
    CHECK(atomic_load(&most_readers) > 1);
    CHECK(atomic_load(&slept_on) > 0);
    CHECK(atomic_load(&lock.state) == 0);
    printf("rw lock stress: %ld writes, %ld reads, up to %d readers at once, %ld long holds with sleepers, "
           "%ld violations\n",
           writes, atomic_load(&reads_done), atomic_load(&most_readers), atomic_load(&slept_on),
           atomic_load(&violations));
    return report("rw lock stress");
}
