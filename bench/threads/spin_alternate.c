// Do two threads run at once? A pure compute loop (no files, no malloc, no host calls but the
// clock), timed inside one process: ROUNDS times, one thread doing WORK iterations, then two
// threads doing WORK/2 each, so both passes see the same machine load. Prints the median pass of
// each and their ratio: x2.0 when two cores are free, x1.0 when the threads take turns.
// usage: spin_alternate [ROUNDS=7] [WORK=200000000]   (bench/threads/parallel.js runs it)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_ROUNDS 101

static long iterations;
static volatile unsigned sink; // keeps the loop's result alive

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void *spin(void *seed)
{
    unsigned x = (unsigned)(long)seed + 1;
    for (long i = 0; i < iterations; i++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
    }
    sink += x;
    return NULL;
}

// Milliseconds for `threads` threads to share `work` iterations, from the first create to the
// last join.
static double timed_pass(int threads, long work)
{
    pthread_t ids[2];
    iterations = work / threads;
    double start = now_ms();
    for (int t = 0; t < threads; t++)
        if (pthread_create(&ids[t], NULL, spin, (void *)(long)t) != 0) {
            perror("pthread_create");
            exit(1);
        }
    for (int t = 0; t < threads; t++)
        pthread_join(ids[t], NULL);
    return now_ms() - start;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, by_value);
    return values[count / 2];
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 7;
    long work = argc > 2 ? atol(argv[2]) : 200000000L;
    if (rounds < 1 || rounds > MAX_ROUNDS || work < 2) {
        fprintf(stderr, "usage: spin_alternate [ROUNDS 1-%d] [WORK >= 2]\n", MAX_ROUNDS);
        return 2;
    }
    double one[MAX_ROUNDS], two[MAX_ROUNDS];
    timed_pass(2, work / 10); // both threads started once (and their code compiled) before timing
    for (int r = 0; r < rounds; r++) {
        one[r] = timed_pass(1, work);
        two[r] = timed_pass(2, work);
    }
    double one_ms = median(one, rounds), two_ms = median(two, rounds);
    printf("RESULT {\"one_thread_ms\":%.1f,\"two_threads_ms\":%.1f,\"speedup\":%.2f}\n", one_ms, two_ms,
           one_ms / two_ms);
    return 0;
}
