/* Multithreaded allocator stress: random malloc/calloc/realloc/aligned/free mixes,
 * blocks handed to other threads to free, and threads that exit with live blocks which
 * later threads check and free. Every block is filled with a pattern derived from its
 * tag and checked when freed, so overlapping blocks or stray writes show up.
 *
 * usage: stress [threads=4] [ops_per_thread=20000] [seed=1]
 * Builds natively (-DSPINDLE_ALLOC_PREFIXED, calling spindle_*) and for wasm (standard
 * names, runtime/alloc linked as malloc). */
#include "alloc_names.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SPINDLE_ALLOC_PREFIXED
#include <spindle/alloc.h>
#endif

#define SLOTS 128
#define MAILBOX 256
#define MAX_THREADS 64

struct blk {
    unsigned char *p;
    size_t n;
    uint32_t tag;
};

struct mailbox {
    pthread_mutex_t lock;
    struct blk items[MAILBOX];
    int count;
};

static int nthreads; /* threads running in the current phase */
static long ops_per_thread;
static unsigned seed0;
static struct mailbox boxes[MAX_THREADS];
static pthread_mutex_t orphan_lock = PTHREAD_MUTEX_INITIALIZER;
static struct blk *orphans;
static size_t orphan_count, orphan_cap;
static atomic_uint next_tag;
static atomic_long corrupt, misaligned, short_usable, not_zeroed, lost_prefix, oom;

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static unsigned char pat(uint32_t tag) { return (unsigned char)(tag * 2654435761u >> 24) | 1; }

static void fill(struct blk *b) { memset(b->p, pat(b->tag), b->n); }

static bool intact(const struct blk *b, size_t upto)
{
    unsigned char c = pat(b->tag);
    for (size_t i = 0; i < upto; i++)
        if (b->p[i] != c)
            return false;
    return true;
}

static void release(struct blk *b)
{
    if (!b->p)
        return;
    if (!intact(b, b->n))
        atomic_fetch_add(&corrupt, 1);
    T_FREE(b->p);
    b->p = NULL;
}

static bool got(struct blk *b, size_t n)
{
    if (!b->p) {
        atomic_fetch_add(&oom, 1);
        return false;
    }
    b->n = n;
    b->tag = atomic_fetch_add(&next_tag, 1);
    if (T_USABLE(b->p) < n)
        atomic_fetch_add(&short_usable, 1);
    return true;
}

static size_t pick_size(uint32_t *s)
{
    uint32_t r = rnd(s) % 100;
    if (r < 70)
        return rnd(s) % 512;
    if (r < 97)
        return 512 + rnd(s) % (64 * 1024);
    return 64 * 1024 + rnd(s) % (256 * 1024);
}

static void post(int to, struct blk *b)
{
    struct mailbox *m = &boxes[to];
    pthread_mutex_lock(&m->lock);
    if (m->count < MAILBOX) {
        m->items[m->count++] = *b;
        b->p = NULL;
    }
    pthread_mutex_unlock(&m->lock);
    release(b); /* box full: free it here */
}

static void drain(int me)
{
    struct mailbox *m = &boxes[me];
    struct blk local[MAILBOX];
    pthread_mutex_lock(&m->lock);
    int n = m->count;
    memcpy(local, m->items, (size_t)n * sizeof local[0]);
    m->count = 0;
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < n; i++)
        release(&local[i]);
}

static void one_op(int me, struct blk *slot, uint32_t *s)
{
    uint32_t r = rnd(s) % 100;
    size_t n = pick_size(s);
    if (r < 40) {
        release(slot);
        slot->p = T_MALLOC(n);
        if (got(slot, n))
            fill(slot);
    } else if (r < 52) {
        release(slot);
        size_t align = (size_t)1 << (4 + rnd(s) % 13); /* 16 B .. 64 KiB */
        if (n > 64 * 1024)
            n %= 64 * 1024;
        void *p = NULL;
        if (r < 46)
            slot->p = T_ALIGNED_ALLOC(align, n);
        else if (r < 49)
            slot->p = T_POSIX_MEMALIGN(&p, align, n) ? NULL : p;
        else
            slot->p = T_MEMALIGN(align, n);
        if (got(slot, n)) {
            if ((uintptr_t)slot->p & (align - 1))
                atomic_fetch_add(&misaligned, 1);
            fill(slot);
        }
    } else if (r < 60) {
        release(slot);
        size_t count = 1 + rnd(s) % 16;
        slot->p = T_CALLOC(count, n / count + 1);
        if (got(slot, count * (n / count + 1))) {
            for (size_t i = 0; i < slot->n; i++)
                if (slot->p[i]) {
                    atomic_fetch_add(&not_zeroed, 1);
                    break;
                }
            fill(slot);
        }
    } else if (r < 75) {
        if (!slot->p)
            return;
        unsigned char *q = T_REALLOC(slot->p, n ? n : 1);
        if (!q) {
            atomic_fetch_add(&oom, 1);
            return;
        }
        size_t keep = slot->n < n ? slot->n : n;
        slot->p = q;
        if (!intact(slot, keep))
            atomic_fetch_add(&lost_prefix, 1);
        if (T_USABLE(q) < (n ? n : 1))
            atomic_fetch_add(&short_usable, 1);
        slot->n = n;
        fill(slot);
    } else if (r < 92) {
        if (slot->p && nthreads > 1)
            post((int)(rnd(s) % (uint32_t)nthreads), slot);
    } else {
        release(slot);
    }
    (void)me;
}

struct worker_arg {
    int id;
    int phase;
};

/* Phase 0 workers leave their live blocks behind as orphans when they exit; phase 1
 * workers (new threads, adopting the abandoned heaps) free them. */
static void *worker(void *arg)
{
    struct worker_arg *w = arg;
    struct blk slots[SLOTS] = {{0}};
    uint32_t s = seed0 * 7919u + (uint32_t)w->id * 104729u + (uint32_t)w->phase * 15485863u + 1;
    for (long i = 0; i < ops_per_thread; i++) {
        one_op(w->id, &slots[rnd(&s) % SLOTS], &s);
        if (i % 64 == 0)
            drain(w->id);
    }
    drain(w->id);
    if (w->phase == 0) {
        pthread_mutex_lock(&orphan_lock);
        for (int i = 0; i < SLOTS; i++)
            if (slots[i].p) {
                if (orphan_count == orphan_cap) {
                    size_t cap = orphan_cap ? orphan_cap * 2 : 256;
                    struct blk *grown = T_REALLOC(orphans, cap * sizeof *grown);
                    if (!grown)
                        break;
                    orphans = grown;
                    orphan_cap = cap;
                }
                orphans[orphan_count++] = slots[i];
                slots[i].p = NULL;
            }
        pthread_mutex_unlock(&orphan_lock);
    } else {
        for (;;) { /* take a share of the orphans */
            pthread_mutex_lock(&orphan_lock);
            struct blk b = orphan_count ? orphans[--orphan_count] : (struct blk){0};
            pthread_mutex_unlock(&orphan_lock);
            if (!b.p)
                break;
            release(&b);
        }
    }
    for (int i = 0; i < SLOTS; i++)
        release(&slots[i]);
    return NULL;
}

static int passed, failed;

static void check(const char *what, bool ok, long detail)
{
    printf("%s: %s", ok ? "PASS" : "FAIL", what);
    if (!ok)
        printf(" (%ld)", detail);
    printf("\n");
    ok ? passed++ : failed++;
}

static bool run_phase(int phase, int threads)
{
    nthreads = threads;
    pthread_t t[MAX_THREADS];
    struct worker_arg args[MAX_THREADS];
    for (int i = 0; i < nthreads; i++) {
        args[i] = (struct worker_arg){i, phase};
        if (pthread_create(&t[i], NULL, worker, &args[i])) {
            fprintf(stderr, "pthread_create failed for thread %d\n", i);
            for (int j = 0; j < i; j++)
                pthread_join(t[j], NULL);
            return false;
        }
    }
    for (int i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    return true;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    ops_per_thread = argc > 2 ? atol(argv[2]) : 20000;
    seed0 = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "threads must be 1..%d\n", MAX_THREADS);
        return 2;
    }
    for (int i = 0; i < MAX_THREADS; i++)
        pthread_mutex_init(&boxes[i].lock, NULL);
#ifdef SPINDLE_ALLOC_PREFIXED
    struct spindle_alloc_stats before, after;
    spindle_alloc_stats(&before);
#endif
    printf("stress: %d threads, %ld ops each\n", threads, ops_per_thread);
    /* fewer threads first, so the second phase both adopts heaps and makes new ones */
    bool started = run_phase(0, (threads + 1) / 2);
    size_t left_by_exited = orphan_count;
    started = run_phase(1, threads) && started;
    for (int i = 0; i < MAX_THREADS; i++)
        drain(i);
    while (orphan_count)
        release(&orphans[--orphan_count]);
    T_FREE(orphans);
    orphans = NULL;

    check("threads started", started, 0);
    check("exited threads left live blocks for others to free", left_by_exited > 0, 0);
    check("no block corrupted or overlapping", corrupt == 0, corrupt);
    check("alignment honoured", misaligned == 0, misaligned);
    check("usable size >= request", short_usable == 0, short_usable);
    check("calloc zeroes", not_zeroed == 0, not_zeroed);
    check("realloc keeps the prefix", lost_prefix == 0, lost_prefix);
    check("no allocation failed", oom == 0, oom);
#ifdef SPINDLE_ALLOC_PREFIXED
    spindle_alloc_stats(&after);
    check("in-use bytes back to start", after.in_use_bytes == before.in_use_bytes,
          (long)(after.in_use_bytes - before.in_use_bytes));
    /* what may stay: the one empty page per size class a live heap keeps */
    check("pages of exited threads returned to the pool", after.page_bytes <= (2u << 20),
          (long)after.page_bytes);
    printf("stats: peak pages %zu KiB, reserved %zu KiB, heaps %zu, abandoned %zu\n",
           after.peak_page_bytes >> 10, after.reserved_bytes >> 10, after.heaps, after.abandoned_heaps);
#endif
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
