// pthread_once runs its init routine exactly once even when many threads race
// to call it, and every caller returns only after the routine has finished.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define THREADS 16

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int init_runs;
static pthread_barrier_t start_gate;
static int table[64];

static void build_table(void)
{
    atomic_fetch_add(&init_runs, 1);
    for (int i = 0; i < 64; i++)
        table[i] = i * i;
}

static void *call_once_and_read(void *arg)
{
    (void)arg;
    // Release all threads at the same moment so they really race (a barrier,
    // not a spin: spinning threads would starve the others on few cores).
    pthread_barrier_wait(&start_gate);
    pthread_once(&once, build_table);
    int sum = 0;
    for (int i = 0; i < 64; i++)
        sum += table[i];
    return (void *)(size_t)sum;
}

int main(void)
{
    pthread_t threads[THREADS];
    pthread_barrier_init(&start_gate, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, call_once_and_read, NULL);
    int all_saw_full_table = 1;
    for (int i = 0; i < THREADS; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        if ((int)(size_t)ret != 85344)
            all_saw_full_table = 0;
    }
    pthread_barrier_destroy(&start_gate);
    pthread_once(&once, build_table);
    printf("init routine runs: %d\n", atomic_load(&init_runs));
    printf("all threads saw the finished table: %d\n", all_saw_full_table);
    int ok = atomic_load(&init_runs) == 1 && all_saw_full_table;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
