/* Math scaling: counts primes below N by trial division, in chunks of 4096 numbers dealt to the
 * T threads in turn, so each gets similar work (a stride of T alone would give one of two
 * threads every even number). Pure computation, no allocation and no I/O: the ideal curve.
 *
 * usage: primes [threads=1] [limit=6000000] */
#include "../alloc/bench_util.h"

#include <pthread.h>

#define CHUNK 4096

struct job {
    long first_chunk, threads, limit, found;
};

static int is_prime(long n)
{
    if (n < 2)
        return 0;
    for (long d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

static void *count(void *p)
{
    struct job *job = p;
    for (long c = job->first_chunk; c * CHUNK < job->limit; c += job->threads) {
        long end = (c + 1) * CHUNK < job->limit ? (c + 1) * CHUNK : job->limit;
        for (long n = c * CHUNK; n < end; n++)
            job->found += is_prime(n);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = (int)arg_long(argc, argv, 1, 1);
    long limit = arg_long(argc, argv, 2, 6000000);
    if (threads < 1 || threads > 256 || limit < 2) {
        fprintf(stderr, "usage: primes [threads 1..256] [limit >= 2]\n");
        return 2;
    }
    pthread_t tids[256];
    struct job jobs[256];
    double t0 = now_ms();
    for (int t = 0; t < threads; t++)
        jobs[t] = (struct job){t, threads, limit, 0};
    if (threads == 1) {
        count(&jobs[0]);
    } else {
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tids[t], NULL, count, &jobs[t])) {
                fprintf(stderr, "pthread_create failed\n");
                return 1;
            }
        for (int t = 0; t < threads; t++)
            pthread_join(tids[t], NULL);
    }
    long total = 0;
    for (int t = 0; t < threads; t++)
        total += jobs[t].found;
    char extra[64];
    snprintf(extra, sizeof extra, "\"primes\":%ld", total);
    print_result("primes", threads, now_ms() - t0, limit, extra);
    return 0;
}
