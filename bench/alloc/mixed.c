/* Single-thread mixed sizes: random malloc (8 B..64 KiB, log-uniform), realloc to a new
 * random size (growing and shrinking) and free over 1000 slots; each thread (if more than
 * one) runs the same independent loop.
 *
 * usage: mixed [threads=1] [ops_per_thread=2000000] [max_size=65536] */
#include "bench_util.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define SLOTS 1000

static long ops;
static uint32_t max_log;

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static size_t pick(uint32_t *s)
{ /* log-uniform in [8, 2^max_log] */
    uint32_t e = 3 + rnd(s) % (max_log - 2);
    return ((size_t)1 << (e - 1)) + rnd(s) % ((size_t)1 << (e - 1));
}

static void *work(void *arg)
{
    uint32_t s = 2166136261u ^ (uint32_t)(uintptr_t)arg;
    char *slot[SLOTS] = {0};
    size_t len[SLOTS] = {0};
    for (long i = 0; i < ops; i++) {
        unsigned k = rnd(&s) % SLOTS;
        uint32_t r = rnd(&s) % 4;
        if (r == 0 && slot[k]) {
            free(slot[k]);
            slot[k] = NULL;
        } else if (r == 1 && slot[k]) {
            size_t n = pick(&s);
            char *q = realloc(slot[k], n);
            if (!q) {
                fprintf(stderr, "realloc failed\n");
                exit(1);
            }
            q[n - 1] = q[0];
            slot[k] = q;
            len[k] = n;
        } else {
            size_t n = pick(&s);
            free(slot[k]);
            slot[k] = malloc(n);
            if (!slot[k]) {
                fprintf(stderr, "malloc failed\n");
                exit(1);
            }
            slot[k][0] = (char)i;
            slot[k][n - 1] = (char)i;
            len[k] = n;
        }
    }
    for (unsigned k = 0; k < SLOTS; k++)
        free(slot[k]);
    (void)len;
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = (int)arg_long(argc, argv, 1, 1);
    ops = arg_long(argc, argv, 2, 2000000);
    long max_size = arg_long(argc, argv, 3, 65536);
    if (threads < 1 || threads > 256 || max_size < 16) {
        fprintf(stderr, "usage: mixed [threads] [ops_per_thread] [max_size>=16]\n");
        return 2;
    }
    max_log = 0;
    while (((long)1 << (max_log + 1)) <= max_size)
        max_log++;
    pthread_t th[256];
    double t0 = now_ms();
    if (threads == 1) {
        work(NULL);
    } else {
        for (int t = 0; t < threads; t++)
            if (pthread_create(&th[t], NULL, work, (void *)(uintptr_t)(t + 1))) {
                fprintf(stderr, "pthread_create failed\n");
                return 1;
            }
        for (int t = 0; t < threads; t++)
            pthread_join(th[t], NULL);
    }
    double ms = now_ms() - t0;
    print_result("mixed", threads, ms, (long long)threads * ops, "");
    return 0;
}
