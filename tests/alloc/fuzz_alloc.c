/* libFuzzer target: each input is a program of allocator operations (malloc, calloc,
 * realloc, aligned allocations, free here, free on a helper thread) over a table of live
 * blocks. Checked after every step: alignment, usable size >= request, no two live blocks
 * overlap, block contents intact (so no block was handed out twice), calloc zeroing,
 * realloc keeping the prefix; after each input, in-use bytes are back where they started.
 * Built with -DSPINDLE_ALLOC_PREFIXED (and SPINDLE_ALLOC_DEBUG for pool invariants: then,
 * after each input, the free memory must be coalesced and a block the size of the largest
 * free run must fit in it without the pool growing). */
#include "alloc_names.h"

#include <pthread.h>
#include <spindle/alloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 48

struct blk {
    unsigned char *p;
    size_t n;
    unsigned char fill;
};

static struct blk live[LIVE];

/* A helper thread frees blocks handed to it, one at a time, so inputs can exercise the
 * cross-thread free path deterministically. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static void *handoff;
static bool helper_started;

static void *helper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!handoff)
            pthread_cond_wait(&cond, &lock);
        T_FREE(handoff);
        handoff = NULL;
        pthread_cond_broadcast(&cond);
    }
    return NULL;
}

static void free_remote(void *p)
{
    pthread_mutex_lock(&lock);
    if (!helper_started) {
        pthread_t t;
        if (pthread_create(&t, NULL, helper, NULL)) {
            pthread_mutex_unlock(&lock);
            T_FREE(p);
            return;
        }
        pthread_detach(t);
        helper_started = true;
    }
    handoff = p;
    pthread_cond_broadcast(&cond);
    while (handoff)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
}

static void fail(const char *what, size_t a, size_t b)
{
    fprintf(stderr, "allocator invariant broken: %s (%zu, %zu)\n", what, a, b);
    abort();
}

static void check_intact(const struct blk *b, size_t upto)
{
    for (size_t i = 0; i < upto; i++)
        if (b->p[i] != b->fill)
            fail("block contents changed", i, b->n);
}

static void check_new(int slot, size_t n, size_t align)
{
    struct blk *b = &live[slot];
    if ((uintptr_t)b->p & (align - 1))
        fail("misaligned", (uintptr_t)b->p, align);
    if (T_USABLE(b->p) < n)
        fail("usable size below request", T_USABLE(b->p), n);
    size_t len = n ? n : 1;
    for (int i = 0; i < LIVE; i++) {
        const struct blk *o = &live[i];
        size_t olen = o->n ? o->n : 1;
        if (i != slot && o->p && o->p < b->p + len && b->p < o->p + olen)
            fail("blocks overlap", (uintptr_t)b->p, (uintptr_t)o->p);
    }
}

static void drop(struct blk *b, bool remote)
{
    if (!b->p)
        return;
    check_intact(b, b->n);
    remote ? free_remote(b->p) : T_FREE(b->p);
    b->p = NULL;
}

#ifdef SPINDLE_ALLOC_DEBUG
void spindle_alloc_debug_check(size_t *free_bytes, size_t *largest_free);

/* Coalescing: the pool's walk aborts on two adjacent free spans or unaccounted units;
 * the largest free run it reports must then really serve one block of its size. */
static void check_largest_free_run(void)
{
    size_t free_bytes, largest;
    spindle_alloc_debug_check(&free_bytes, &largest);
    if (largest > free_bytes)
        fail("largest free run above the free total", largest, free_bytes);
    if (largest <= 2 * 65536)
        return; /* small-block classes, not one span */
    struct spindle_alloc_stats s0, s1;
    spindle_alloc_stats(&s0);
    void *p = T_MALLOC(largest - 256); /* 256: room for the span descriptor */
    spindle_alloc_stats(&s1);
    if (!p || s1.reserved_bytes != s0.reserved_bytes)
        fail("a block of the largest free run's size needed more memory", largest, s1.reserved_bytes);
    T_FREE(p);
}
#endif

/* Sizes spread over tiny, small, medium and large (past the small-class limit). */
static size_t size_from(const uint8_t *d)
{
    size_t raw = (size_t)d[0] | (size_t)d[1] << 8;
    switch (d[2] & 3) {
    case 0:
        return raw & 63;
    case 1:
        return raw & 4095;
    case 2:
        return raw;                 /* up to 64 KiB */
    default:
        return raw * 5 + (d[2] >> 2); /* up to ~320 KiB */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct spindle_alloc_stats before, after;
    spindle_alloc_stats(&before);
    unsigned char next_fill = 1;
    for (size_t at = 0; at + 5 <= size; at += 5) {
        const uint8_t *d = data + at;
        int slot = d[1] % LIVE;
        struct blk *b = &live[slot];
        size_t n = size_from(d + 2);
        size_t align = (size_t)1 << (d[3] % 18); /* 1 B .. 128 KiB */
        switch (d[0] % 8) {
        case 0:
        case 1:
            drop(b, false);
            b->p = T_MALLOC(n);
            align = 16;
            break;
        case 2:
            drop(b, false);
            b->p = T_CALLOC(1 + d[4] % 8, n / 8 + 1);
            n = (size_t)(1 + d[4] % 8) * (n / 8 + 1);
            for (size_t i = 0; b->p && i < n; i++)
                if (b->p[i])
                    fail("calloc not zeroed", i, n);
            align = 16;
            break;
        case 3: {
            if (!b->p)
                continue;
            unsigned char *q = T_REALLOC(b->p, n);
            if (!n) { /* realloc(p, 0) frees */
                b->p = NULL;
                continue;
            }
            if (!q)
                fail("realloc failed", n, 0);
            b->p = q;
            check_intact(b, b->n < n ? b->n : n);
            align = 16;
            break;
        }
        case 4:
            drop(b, false);
            b->p = T_ALIGNED_ALLOC(align, n);
            break;
        case 5: {
            drop(b, false);
            void *p = NULL;
            int err = T_POSIX_MEMALIGN(&p, align < sizeof(void *) ? sizeof(void *) : align, n);
            if (err)
                fail("posix_memalign failed", (size_t)err, n);
            b->p = p;
            break;
        }
        case 6:
            drop(b, true);
            continue;
        default:
            drop(b, false);
            continue;
        }
        if (!b->p)
            fail("allocation failed", n, align);
        if (align < 16)
            align = 16;
        b->n = n;
        check_new(slot, n, align);
        b->fill = next_fill++ | 1;
        memset(b->p, b->fill, n);
    }
    for (int i = 0; i < LIVE; i++)
        drop(&live[i], false);
    spindle_alloc_stats(&after);
    if (after.in_use_bytes != before.in_use_bytes)
        fail("in-use bytes not back to start", before.in_use_bytes, after.in_use_bytes);
#ifdef SPINDLE_ALLOC_DEBUG
    check_largest_free_run();
#endif
    return 0;
}
