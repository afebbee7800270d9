/* Larson-style server workload: each thread replaces random blocks in its array of slots
 * (sizes 16..max); after a round it hands the whole array to a new thread and exits, so
 * most frees are of blocks another (often exited) thread allocated.
 *
 * usage: larson [threads=2] [ops_per_round=200000] [rounds=10] [max_size=512] [slots=1000] */
#include "bench_util.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

struct chain {
    char **slots;
    int rounds_left;
    uint32_t seed;
};

static long ops_per_round, slots_per_thread;
static uint32_t max_size;
static atomic_int chains_left;
static atomic_llong total_ops;

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void *round_worker(void *arg)
{
    struct chain *c = arg;
    for (long i = 0; i < ops_per_round; i++) {
        long k = (long)(rnd(&c->seed) % (uint32_t)slots_per_thread);
        free(c->slots[k]);
        uint32_t size = 16 + rnd(&c->seed) % (max_size - 15);
        c->slots[k] = malloc(size);
        if (!c->slots[k]) {
            fprintf(stderr, "malloc failed\n");
            exit(1);
        }
        c->slots[k][0] = (char)i;
    }
    atomic_fetch_add(&total_ops, ops_per_round);
    pthread_t next;
    if (--c->rounds_left > 0 && pthread_create(&next, NULL, round_worker, c) == 0) {
        pthread_detach(next);
    } else {
        for (long k = 0; k < slots_per_thread; k++)
            free(c->slots[k]);
        atomic_fetch_sub(&chains_left, 1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = (int)arg_long(argc, argv, 1, 2);
    ops_per_round = arg_long(argc, argv, 2, 200000);
    int rounds = (int)arg_long(argc, argv, 3, 10);
    max_size = (uint32_t)arg_long(argc, argv, 4, 512);
    slots_per_thread = arg_long(argc, argv, 5, 1000);
    if (threads < 1 || threads > 256 || rounds < 1 || max_size < 16 || slots_per_thread < 1) {
        fprintf(stderr, "usage: larson [threads] [ops_per_round] [rounds] [max_size>=16] [slots]\n");
        return 2;
    }
    struct chain chains[256];
    for (int t = 0; t < threads; t++) { /* slots start full, allocated by the main thread */
        chains[t].slots = calloc((size_t)slots_per_thread, sizeof(char *));
        chains[t].rounds_left = rounds;
        chains[t].seed = 2463534242u + (uint32_t)t * 7919u;
        for (long k = 0; chains[t].slots && k < slots_per_thread; k++)
            chains[t].slots[k] = malloc(16 + rnd(&chains[t].seed) % (max_size - 15));
    }
    atomic_store(&chains_left, threads);
    double t0 = now_ms();
    for (int t = 0; t < threads; t++) {
        pthread_t th;
        if (pthread_create(&th, NULL, round_worker, &chains[t])) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
        pthread_detach(th);
    }
    while (atomic_load(&chains_left) > 0) /* the chains end in detached threads */
        sched_yield();
    double ms = now_ms() - t0;
    for (int t = 0; t < threads; t++)
        free(chains[t].slots);
    print_result("larson", threads, ms, atomic_load(&total_ops), "");
    return 0;
}
