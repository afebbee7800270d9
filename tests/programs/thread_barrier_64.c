// 64 threads alive at once: all of them wait on one pthread_barrier_t before
// any may exit, so the runtime must really run 64 threads concurrently.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define THREADS 64
#define ROUNDS 3

static pthread_barrier_t barrier;
static atomic_int arrived[ROUNDS];
static atomic_int serial_threads[ROUNDS];
static atomic_int saw_everyone[ROUNDS];

static void *meet(void *arg)
{
    (void)arg;
    for (int round = 0; round < ROUNDS; round++) {
        atomic_fetch_add(&arrived[round], 1);
        int rc = pthread_barrier_wait(&barrier);
        if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
            atomic_fetch_add(&serial_threads[round], 1);
        else if (rc != 0)
            return (void *)1;
        // Past the barrier, every thread of this round must already have arrived.
        if (atomic_load(&arrived[round]) == THREADS)
            atomic_fetch_add(&saw_everyone[round], 1);
    }
    return NULL;
}

int main(void)
{
    pthread_barrier_init(&barrier, NULL, THREADS);
    pthread_t threads[THREADS];
    int created = 0;
    for (int i = 0; i < THREADS; i++) {
        int rc = pthread_create(&threads[i], NULL, meet, NULL);
        if (rc != 0) {
            printf("pthread_create %d failed: %d\n", i, rc);
            return 1;
        }
        created++;
    }
    int errors = 0;
    for (int i = 0; i < created; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        if (ret != NULL)
            errors++;
    }
    pthread_barrier_destroy(&barrier);
    int ok = errors == 0;
    for (int round = 0; round < ROUNDS; round++) {
        printf("round %d: arrived=%d serial=%d saw_all_%d=%d\n", round, atomic_load(&arrived[round]),
               atomic_load(&serial_threads[round]), THREADS, atomic_load(&saw_everyone[round]));
        ok = ok && atomic_load(&serial_threads[round]) == 1 && atomic_load(&saw_everyone[round]) == THREADS;
    }
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
