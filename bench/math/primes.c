/* Math scaling: counts primes below N by trial division, striped over T threads so each gets
 * similar work. Pure computation, no allocation and no I/O: the ideal scaling curve.
 *
 * usage: primes [threads=1] [limit=6000000] */
#include "../alloc/bench_util.h"

#include <pthread.h>

struct job { long from, step, limit, found; };

static int is_prime(long n) {
    if (n < 2) return 0;
    for (long d = 2; d * d <= n; d++)
        if (n % d == 0) return 0;
    return 1;
}

static void *count(void *p) {
    struct job *job = p;
    for (long n = job->from; n < job->limit; n += job->step) job->found += is_prime(n);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = (int)arg_long(argc, argv, 1, 1);
    long limit = arg_long(argc, argv, 2, 6000000);
    if (threads < 1 || threads > 256 || limit < 2) {
        fprintf(stderr, "usage: primes [threads 1..256] [limit >= 2]\n");
        return 2;
    }
    pthread_t tids[256];
    struct job jobs[256];
    double t0 = now_ms();
    for (int t = 0; t < threads; t++) jobs[t] = (struct job){t, threads, limit, 0};
    if (threads == 1) {
        count(&jobs[0]);
    } else {
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tids[t], NULL, count, &jobs[t])) {
                fprintf(stderr, "pthread_create failed\n");
                return 1;
            }
        for (int t = 0; t < threads; t++) pthread_join(tids[t], NULL);
    }
    long total = 0;
    for (int t = 0; t < threads; t++) total += jobs[t].found;
    char extra[64];
    snprintf(extra, sizeof extra, "\"primes\":%ld", total);
    print_result("primes", threads, now_ms() - t0, limit, extra);
    return 0;
}
