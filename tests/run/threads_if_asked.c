/* Starts N threads (argv[1], default 0), all alive at once (a barrier), each adding its number
 * to a total, and prints the total: one module that uses N threads in one run and another number
 * in the next, for the hint that makes `spindle run` start that many threads' workers early
 * (tests/main-thread.test.js). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t all_alive;

static void *add(void *arg)
{
    pthread_barrier_wait(&all_alive);
    pthread_mutex_lock(&lock);
    total += (int)(long)arg;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    pthread_t threads[8];
    if (n < 0 || n > 8)
        return 2;
    if (n > 0 && pthread_barrier_init(&all_alive, NULL, (unsigned)n))
        return 4;
    for (int i = 0; i < n; i++)
        if (pthread_create(&threads[i], NULL, add, (void *)(long)(i + 1)))
            return 3;
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    printf("threads %d, total %d\n", n, total);
    return 0;
}
