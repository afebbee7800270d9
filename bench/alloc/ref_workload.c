/* The reference malloc workload (docs/PERFORMANCE.md, "Reference figures"): TOTAL operations split over W threads;
 * each thread keeps a ring of 1024 slots, at step i frees slot (i & 1023) if occupied,
 * stores malloc(1000 + (i & 1023)) there and writes its first byte; at the end it sums
 * the first bytes and frees everything. W = 1 runs on the main thread.
 *
 * usage: ref_workload [threads=1] [total_ops=100000000] */
#include "bench_util.h"

#include <pthread.h>

#define RING 1024

static long per_thread;

static void *work(void *arg)
{
    char *ring[RING] = {0};
    unsigned long sum = 0;
    for (long i = 0; i < per_thread; i++) {
        unsigned slot = (unsigned)(i & (RING - 1));
        free(ring[slot]);
        ring[slot] = malloc(1000 + slot);
        if (!ring[slot]) {
            fprintf(stderr, "malloc failed at step %ld\n", i);
            exit(1);
        }
        ring[slot][0] = (char)i;
    }
    for (unsigned s = 0; s < RING; s++) {
        if (ring[s])
            sum += (unsigned char)ring[s][0];
        free(ring[s]);
    }
    *(unsigned long *)arg = sum;
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = (int)arg_long(argc, argv, 1, 1);
    long total = arg_long(argc, argv, 2, 100000000);
    if (threads < 1 || threads > 256 || total < threads) {
        fprintf(stderr, "usage: ref_workload [threads 1..256] [total_ops]\n");
        return 2;
    }
    per_thread = total / threads;
    unsigned long sums[256] = {0};
    pthread_t t[256];
    double t0 = now_ms();
    if (threads == 1) {
        work(&sums[0]);
    } else {
        for (int i = 0; i < threads; i++)
            if (pthread_create(&t[i], NULL, work, &sums[i])) {
                fprintf(stderr, "pthread_create failed\n");
                return 1;
            }
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
    }
    double ms = now_ms() - t0;
    unsigned long sum = 0;
    for (int i = 0; i < threads; i++)
        sum += sums[i];
    printf("Done. (checksum %lu)\n", sum);
    print_result("reference", threads, ms, per_thread * threads, "");
    return 0;
}
