// Threads contending a spin lock that spins a little, then calls sched_yield(), as spin locks
// with a yield backoff do (Rust's yield_now, crossbeam's Backoff::snooze). With more threads than
// cores a yield that does nothing burns the time slice the lock holder needs (docs/HOST.md).
// Arguments: [threads] [sections per thread]; prints the counts and whether every yield gave 0,
// and on stderr the threads' time and yields (bench: docs/HOST.md).
#define _DEFAULT_SOURCE /* sched_yield under -std=c11 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_THREADS 64
#define SPINS_BEFORE_YIELD 64

static atomic_int lock_word;
static long guarded_counter;
static volatile unsigned scratch; /* work inside the lock the compiler keeps */
static long sections_per_thread = 20000;
static atomic_long yields;
static atomic_int yield_failed;
static pthread_barrier_t start_together; /* all threads contend from the start */

static void spin_lock(void)
{
    for (;;) {
        for (int i = 0; i < SPINS_BEFORE_YIELD; i++) {
            if (atomic_load_explicit(&lock_word, memory_order_relaxed) == 0 &&
                !atomic_exchange_explicit(&lock_word, 1, memory_order_acquire))
                return;
        }
        if (sched_yield() != 0)
            atomic_store(&yield_failed, 1);
        atomic_fetch_add_explicit(&yields, 1, memory_order_relaxed);
    }
}

static void spin_unlock(void) { atomic_store_explicit(&lock_word, 0, memory_order_release); }

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* each thread's start (after the barrier) and end: the time is the last end less the first start */
static double started_ms[MAX_THREADS], ended_ms[MAX_THREADS];

static void *work(void *arg)
{
    int index = (int)(size_t)arg;
    pthread_barrier_wait(&start_together);
    started_ms[index] = now_ms();
    for (long i = 0; i < sections_per_thread; i++) {
        spin_lock();
        // a short critical section: the counter, then a few dependent steps of work
        guarded_counter++;
        for (int k = 0; k < 16; k++)
            scratch = scratch * 31 + k;
        spin_unlock();
    }
    ended_ms[index] = now_ms();
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    if (argc > 2)
        sections_per_thread = atol(argv[2]);
    if (threads < 1 || threads > MAX_THREADS || sections_per_thread < 1) {
        fprintf(stderr, "usage: yield_spinlock [threads 1-%d] [sections per thread]\n", MAX_THREADS);
        return 2;
    }
    pthread_t ids[MAX_THREADS];
    pthread_barrier_init(&start_together, NULL, threads + 1);
    for (int i = 0; i < threads; i++)
        if (pthread_create(&ids[i], NULL, work, (void *)(size_t)i) != 0)
            return 1;
    pthread_barrier_wait(&start_together);
    for (int i = 0; i < threads; i++)
        pthread_join(ids[i], NULL);
    double first = started_ms[0], last = ended_ms[0];
    for (int i = 1; i < threads; i++) {
        if (started_ms[i] < first)
            first = started_ms[i];
        if (ended_ms[i] > last)
            last = ended_ms[i];
    }
    double ms = last - first;
    fprintf(stderr, "threads %d: %.1f ms, %ld yields\n", threads, ms, atomic_load(&yields));
    long expected = threads * sections_per_thread;
    printf("counter = %ld (expected %ld)\n", guarded_counter, expected);
    printf("sched_yield returned 0: %s\n", atomic_load(&yield_failed) ? "no" : "yes");
    int ok = guarded_counter == expected && !atomic_load(&yield_failed);
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
