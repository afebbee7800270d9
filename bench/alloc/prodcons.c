/* Producer/consumer: in each pair one thread allocates blocks (16..1024 bytes) and passes
 * them through a bounded ring to the other, which frees them. Every free is a cross-thread
 * free; memory must stay bounded. Reports memory at ten points of the run.
 *
 * usage: prodcons [threads=2 (pairs = threads/2, at least 1)] [blocks_per_pair=2000000] */
#include "bench_util.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define RING 4096

struct pair {
    char *ring[RING];
    atomic_long head, tail; /* producer writes head, consumer writes tail */
    long blocks;
    long checksum;
};

static long long samples[10];

/* Wait politely for the other side: spin, then yield, then sleep (a wasm host's
 * sched_yield may return at once without giving the core away). */
static void backoff(int spin)
{
    if (spin > 20000) {
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    } else if (spin > 1000) {
        sched_yield();
    }
}
static struct pair pairs_[64];

static void *producer(void *arg)
{
    struct pair *p = arg;
    uint32_t s = 88172645u;
    for (long i = 0; i < p->blocks; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        char *b = malloc(16 + s % 1009);
        if (!b) {
            fprintf(stderr, "malloc failed\n");
            exit(1);
        }
        b[0] = (char)i;
        long h = atomic_load_explicit(&p->head, memory_order_relaxed);
        for (int spin = 0; h - atomic_load_explicit(&p->tail, memory_order_acquire) >= RING; spin++)
            backoff(spin);
        p->ring[h % RING] = b;
        atomic_store_explicit(&p->head, h + 1, memory_order_release);
        if (p == &pairs_[0] && i % (p->blocks / 10 + 1) == 0 && i / (p->blocks / 10 + 1) < 10)
            samples[i / (p->blocks / 10 + 1)] = peak_memory_bytes();
    }
    return NULL;
}

static void *consumer(void *arg)
{
    struct pair *p = arg;
    for (long i = 0; i < p->blocks; i++) {
        long t = atomic_load_explicit(&p->tail, memory_order_relaxed);
        for (int spin = 0; atomic_load_explicit(&p->head, memory_order_acquire) == t; spin++)
            backoff(spin);
        char *b = p->ring[t % RING];
        p->checksum += (unsigned char)b[0];
        free(b);
        atomic_store_explicit(&p->tail, t + 1, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = (int)arg_long(argc, argv, 1, 2);
    long blocks = arg_long(argc, argv, 2, 2000000);
    int pairs = threads / 2 > 0 ? threads / 2 : 1;
    if (pairs > 64 || blocks < 1) {
        fprintf(stderr, "usage: prodcons [threads 2..128] [blocks_per_pair]\n");
        return 2;
    }
    struct pair *ps = pairs_;
    pthread_t t[128];
    double t0 = now_ms();
    for (int i = 0; i < pairs; i++) {
        ps[i].blocks = blocks;
        if (pthread_create(&t[2 * i], NULL, producer, &ps[i]) ||
            pthread_create(&t[2 * i + 1], NULL, consumer, &ps[i])) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < 2 * pairs; i++)
        pthread_join(t[i], NULL);
    double ms = now_ms() - t0;
    char extra[400];
    int n = snprintf(extra, sizeof extra, "\"memory_samples\":[");
    for (int i = 0; i < 10; i++)
        n += snprintf(extra + n, sizeof extra - (size_t)n, "%s%lld", i ? "," : "", samples[i]);
    snprintf(extra + n, sizeof extra - (size_t)n, "]");
    print_result("prodcons", 2 * pairs, ms, (long long)blocks * pairs, extra);
    return 0;
}
