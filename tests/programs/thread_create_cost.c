// Creates and joins 200 threads one after another and reports the median
// create+join time on stderr (not compared: it is a measurement).
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define THREADS 200

static void *touch(void *arg)
{
    *(int *)arg += 1;
    return NULL;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static int64_t elapsed[THREADS];
    int touched = 0;
    for (int i = 0; i < THREADS; i++) {
        int64_t start = now_ns();
        pthread_t t;
        if (pthread_create(&t, NULL, touch, &touched) != 0 || pthread_join(t, NULL) != 0) {
            printf("thread %d failed\n", i);
            return 1;
        }
        elapsed[i] = now_ns() - start;
    }
    qsort(elapsed, THREADS, sizeof elapsed[0], compare_int64);
    fprintf(stderr, "create+join of %d threads: median %.1f us, min %.1f us, max %.1f us\n", THREADS,
            elapsed[THREADS / 2] / 1000.0, elapsed[0] / 1000.0, elapsed[THREADS - 1] / 1000.0);
    printf("%s\n", touched == THREADS ? "ok" : "FAILED");
    return touched == THREADS ? 0 : 1;
}
