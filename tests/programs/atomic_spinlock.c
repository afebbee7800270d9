// A spinlock built on C11 atomic_flag protecting a plain counter, next to a
// lock-free atomic_fetch_add counter and a compare-exchange maximum.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define THREADS 4
#define ITERATIONS 50000

static atomic_flag spin = ATOMIC_FLAG_INIT;
static long guarded_counter;
static atomic_long lockfree_counter;
static atomic_long maximum;

static void spin_lock(void)
{
    while (atomic_flag_test_and_set_explicit(&spin, memory_order_acquire)) {
    }
}

static void spin_unlock(void) { atomic_flag_clear_explicit(&spin, memory_order_release); }

static void store_max(long value)
{
    long seen = atomic_load(&maximum);
    while (seen < value && !atomic_compare_exchange_weak(&maximum, &seen, value)) {
    }
}

static void *work(void *arg)
{
    long index = (long)(size_t)arg;
    for (long i = 0; i < ITERATIONS; i++) {
        spin_lock();
        guarded_counter++;
        spin_unlock();
        atomic_fetch_add_explicit(&lockfree_counter, 1, memory_order_relaxed);
        store_max(index * ITERATIONS + i);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, work, (void *)(size_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    long expected = (long)THREADS * ITERATIONS;
    printf("spinlock counter = %ld (expected %ld)\n", guarded_counter, expected);
    printf("fetch_add counter = %ld\n", atomic_load(&lockfree_counter));
    printf("cmpxchg maximum = %ld (expected %ld)\n", atomic_load(&maximum), expected - 1);
    printf("atomic_long lock free: %d\n", atomic_is_lock_free(&lockfree_counter) ? 1 : 0);
    int ok = guarded_counter == expected && atomic_load(&lockfree_counter) == expected &&
             atomic_load(&maximum) == expected - 1;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
