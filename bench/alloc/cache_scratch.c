/* False-sharing test in the style of Hoard's cache-scratch: the main thread allocates one
 * small object per thread (neighbours in memory) and hands them out; each thread frees
 * its object, then repeatedly allocates an object of the same size and writes it many
 * times. An allocator that gives a thread memory next to another thread's object makes
 * the cores fight over one cache line.
 *
 * usage: cache_scratch [threads=2] [iterations=1000] [object_size=8] [writes=10000] */
#include "bench_util.h"

#include <pthread.h>

static long iterations, writes;
static size_t object_size;

static void *work(void *arg)
{
    free(arg);
    for (long i = 0; i < iterations; i++) {
        volatile char *o = malloc(object_size);
        if (!o) {
            fprintf(stderr, "malloc failed\n");
            exit(1);
        }
        for (long w = 0; w < writes; w++)
            for (size_t k = 0; k < object_size; k++)
                o[k] = (char)(o[k] + 1);
        free((void *)o);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = (int)arg_long(argc, argv, 1, 2);
    iterations = arg_long(argc, argv, 2, 1000);
    object_size = (size_t)arg_long(argc, argv, 3, 8);
    writes = arg_long(argc, argv, 4, 10000);
    if (threads < 1 || threads > 256 || object_size < 1) {
        fprintf(stderr, "usage: cache_scratch [threads] [iterations] [object_size] [writes]\n");
        return 2;
    }
    void *objs[256];
    for (int t = 0; t < threads; t++)
        objs[t] = malloc(object_size);
    pthread_t th[256];
    double t0 = now_ms();
    for (int t = 0; t < threads; t++)
        if (pthread_create(&th[t], NULL, work, objs[t])) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    double ms = now_ms() - t0;
    print_result("cache_scratch", threads, ms, (long long)threads * iterations * writes, "");
    return 0;
}
