// What threads cost the host: starts N threads that block on a condition variable, prints how
// long starting them took ("started N threads in X ms") and "holding", then keeps them until
// its stdin closes, so that bench/threads/thread-cost.js can read the process's memory.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int started, released;

static void *idle(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    started++;
    pthread_cond_broadcast(&changed);
    while (!released)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    pthread_t *threads = calloc((size_t)n + 1, sizeof *threads);
    double t0 = now_ms();
    for (int i = 0; i < n; i++) {
        if (pthread_create(&threads[i], NULL, idle, NULL) != 0) {
            fprintf(stderr, "pthread_create %d failed\n", i);
            return 1;
        }
    }
    pthread_mutex_lock(&lock);
    while (started < n)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    printf("started %d threads in %.1f ms\nholding\n", n, now_ms() - t0);
    fflush(stdout);
    char c;
    while (read(0, &c, 1) > 0) {
    }
    pthread_mutex_lock(&lock);
    released = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    return 0;
}
