/* Thread heaps: the slow paths of small-block malloc and free.
 *
 * Each thread has a heap (found through TLS) with one list of spans per size class. Only
 * the owner touches a span's `free` list and counters. Another thread frees a block by
 * pushing it on the span's atomic `xfree` stack; the owner takes the whole stack with one
 * exchange when it runs out of blocks. A span with nothing left to hand out is detached
 * from its list and flagged in `xfree`; the first remote free into it clears the flag and
 * pushes the span on the owner heap's `notified` stack, so the owner never scans full
 * spans. When a thread exits, its heap is abandoned: every span left is detached, and a
 * new thread adopts the whole heap, or a running thread adopts notified spans from it. */
#define _DEFAULT_SOURCE /* sched_yield under -std=c11 */
#include "alloc_internal.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>

_Thread_local struct heap *alloc_tls_heap;
#if defined(__wasm__)
_Thread_local uintptr_t alloc_seen_end;
#endif
struct heap alloc_no_heap;

static struct heap *all_heaps;        /* guarded by the pool lock */
static struct heap *abandoned;        /* guarded by the pool lock */
static atomic_int abandoned_count;    /* read without the lock as a hint */
/* Frees by threads that never allocated (so have no heap), striped over cache lines so
 * several such consumer threads do not fight over one counter. */
#define ORPHAN_STRIPES 8
static struct {
    _Atomic size_t bytes;
    char pad[64 - sizeof(size_t)];
} orphan_net[ORPHAN_STRIPES];
static _Thread_local char orphan_stripe_tag;

/* Stripe of the calling thread: a hash of the address of one of its TLS bytes. */
static unsigned orphan_stripe(void)
{
    return (unsigned)(((uint32_t)((uintptr_t)&orphan_stripe_tag >> 4) * 2654435761u) >> 29);
}

static pthread_key_t exit_key;
static atomic_int key_state;          /* 0 none, 1 being created, 2 ready, 3 failed */

/* Every span a thread allocates from passes here (new, woken up, adopted). */
static void list_push(struct heap *h, struct span *s)
{
    see_memory(s->start + (s->units << UNIT_SHIFT));
    struct span *head = h->cur[s->size_class];
    s->prev = NULL;
    s->next = head == &alloc_empty_span ? NULL : head;
    if (s->next)
        s->next->prev = s;
    h->cur[s->size_class] = s;
    s->detached = 0;
}

static void list_remove(struct heap *h, struct span *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        h->cur[s->size_class] = s->next ? s->next : &alloc_empty_span;
    if (s->next)
        s->next->prev = s->prev;
    s->detached = 1;
}

/* Put a stack of remotely freed blocks on the owner's free list. */
static void take_blocks(struct span *s, void *list)
{
    void **last = list;
    uint32_t n = 1;
    for (; *last; last = *last)
        n++;
    *last = s->free;
    s->free = list;
    s->used -= n;
}

static bool collect(struct span *s)
{
    if (!atomic_load_explicit(&s->xfree, memory_order_relaxed))
        return false;
    uintptr_t x = atomic_exchange_explicit(&s->xfree, 0, memory_order_acquire) & ~XFREE_DETACHED;
    if (x)
        take_blocks(s, (void *)x);
    return x != 0;
}

/* Flag an exhausted, already unlisted span; fails if remote frees arrived meanwhile.
 * Release: a remote freer that clears the flag must see the current owner. */
static bool mark_detached(struct span *s)
{
    uintptr_t none = 0;
    return atomic_compare_exchange_strong_explicit(&s->xfree, &none, XFREE_DETACHED, memory_order_release,
                                                   memory_order_relaxed);
}

/* Detached spans of `from` that remote frees woke up: list them in `into` (another heap
 * when adopting from an abandoned one), or return them to the pool if empty. */
static bool take_notified(struct heap *from, struct heap *into)
{
    if (!atomic_load_explicit(&from->notified, memory_order_relaxed))
        return false;
    struct span *s = atomic_exchange_explicit(&from->notified, NULL, memory_order_acquire);
    for (struct span *next; s; s = next) {
        next = s->xnext;
        collect(s);
        if (!s->used) {
            pool_free(s);
        } else {
            if (from != into)
                atomic_store_explicit(&s->owner, into, memory_order_relaxed);
            list_push(into, s);
        }
    }
    return true;
}

/* Leave an unlisted span detached, so the next remote free reports it; returns it to the
 * pool instead if it is (or becomes) empty. */
__attribute__((noinline)) static bool detach_or_empty(struct span *s)
{
    for (;;) {
        collect(s);
        if (!s->used)
            return true; /* the caller gives it back */
        if (mark_detached(s))
            return false;
    }
}

static void detach_or_release(struct span *s)
{
    if (detach_or_empty(s))
        pool_free(s);
}

/* Take `a` off the abandoned list (NULL: the first one with notified spans) to work on
 * it alone. */
static struct heap *hold_abandoned(struct heap *a)
{
    pool_lock();
    struct heap **pp = &abandoned;
    while (*pp && (a ? *pp != a : !atomic_load_explicit(&(*pp)->notified, memory_order_relaxed)))
        pp = &(*pp)->next_abandoned;
    a = *pp;
    if (a)
        *pp = a->next_abandoned;
    pool_unlock();
    return a;
}

static void put_back_abandoned(struct heap *a)
{
    pool_lock();
    a->next_abandoned = abandoned;
    abandoned = a;
    pool_unlock();
}

/* Spans of an abandoned heap that got remote frees: empty ones go back to the pool, the
 * others move into `into`, or (into == NULL) stay detached in the abandoned heap. */
COLD_PATH static bool reclaim_abandoned(struct heap *a, struct heap *into)
{
    if (!(a = hold_abandoned(a)))
        return false;
    if (into) {
        take_notified(a, into);
    } else {
        struct span *s = atomic_exchange_explicit(&a->notified, NULL, memory_order_acquire);
        for (struct span *next; s; s = next) {
            next = s->xnext;
            detach_or_release(s);
        }
    }
    put_back_abandoned(a);
    return true;
}

/* Spans hold at least 8 blocks (4 above 4 KiB, 2 above 16 KiB: fewer blocks per page
 * means less memory parked in half-used pages of big classes) and waste under 1/8 at
 * their end. */
static size_t class_units(size_t bs)
{
    size_t units = (bs * (bs > 16384 ? 2 : bs > 4096 ? 4 : 8) + SPAN_DESC_SIZE + UNIT_SIZE - 1) >> UNIT_SHIFT;
    while ((((units << UNIT_SHIFT) - SPAN_DESC_SIZE) % bs + SPAN_DESC_SIZE) * 8 > (units << UNIT_SHIFT))
        units++;
    return units;
}

/* Empty spans a heap keeps for reuse by any class of the same span size, so a class that
 * empties and refills a page does not take the pool lock each time. */
#define SPARE_UNITS_MAX 16

static void retire(struct heap *h, struct span *s)
{
    if (h->spare_units + s->units > SPARE_UNITS_MAX) {
        pool_free(s);
        return;
    }
    s->next = h->spare;
    h->spare = s;
    h->spare_units += s->units;
}

static bool release_spares(struct heap *h)
{
    bool any = h->spare != NULL;
    pool_free_list(h->spare); /* linked by next */
    h->spare = NULL;
    h->spare_units = 0;
    return any;
}

/* Reserves start at 8 units (128 KiB) and double with each refill up to 64 (1 MiB): a thread
 * that allocates little holds little, and one that allocates much takes the pool lock a few
 * times for its first pages, not once per size class. Untouched units cost address space, not
 * RAM. Spans larger than half the largest reserve come from the pool directly. */
#define RESERVE_UNITS_FIRST 8
#define RESERVE_UNITS_MAX 64

/* Units for a new span of `units` units: cut from the heap's reserve, refilled when short. */
static struct span *span_units(struct heap *h, size_t units)
{
    if (units > RESERVE_UNITS_MAX / 2)
        return pool_alloc(units, 1, SPAN_SMALL);
    struct span *s = pool_carve(h->reserve, units, SPAN_SMALL);
    if (!s) {
        size_t shift = h->reserve_refills < 3 ? h->reserve_refills : 3;
        size_t want = (size_t)RESERVE_UNITS_FIRST << shift;
        h->reserve = pool_take(h->reserve, want > units ? want : units, 1, SPAN_RESERVE);
        if (!h->reserve)
            return pool_alloc(units, 1, SPAN_SMALL); /* short of memory: no more than needed */
        h->reserve_refills++;
        s = pool_carve(h->reserve, units, SPAN_SMALL);
    }
    if (s == h->reserve)
        h->reserve = NULL;
    return s;
}

static void release_reserve(struct heap *h)
{
    if (h->reserve)
        pool_free(h->reserve);
    h->reserve = NULL;
}

/* A new span for class c: a spare of its size, else (unless spares_only) one from the
 * reserve or the pool. */
static struct span *span_new(struct heap *h, unsigned c, bool spares_only)
{
    size_t bs = class_size(c), units = class_units(bs);
    struct span *s, **pp = &h->spare;
    while ((s = *pp) && s->units != units)
        pp = &s->next;
    if (s) {
        *pp = s->next;
        h->spare_units -= units;
    } else if (spares_only || !(s = span_units(h, units))) {
        return NULL;
    }
    s->free = NULL;
    s->used = 0;
    s->block_size = (uint32_t)bs;
    s->size_class = (uint8_t)c;
    s->bump = s->start;
    s->end = s->start + (((s->units << UNIT_SHIFT) - SPAN_DESC_SIZE) / bs) * bs;
    atomic_store_explicit(&s->xfree, 0, memory_order_relaxed);
    atomic_store_explicit(&s->owner, h, memory_order_relaxed);
    list_push(h, s);
    return s;
}

/* Out of memory: give back the empty spans this heap keeps one per class, and its reserve,
 * so the pool can coalesce them into the larger run the caller needs. */
COLD_PATH bool heap_trim(struct heap *h)
{
    bool any = release_spares(h) || h->reserve;
    release_reserve(h);
    for (unsigned c = 1; c < NUM_CLASSES; c++)
        for (struct span *s = h->cur[c], *next; s != &alloc_empty_span && s; s = next) {
            next = s->next;
            collect(s);
            if (!s->used) {
                list_remove(h, s);
                pool_free(s);
                any = true;
            }
        }
    return any;
}

void *heap_alloc_slow(struct heap *h, unsigned c)
{
    for (;;) {
        struct span *s = h->cur[c];
        if (s != &alloc_empty_span) {
            void **b = s->free;
            if (b || (collect(s) && (b = s->free))) {
                s->free = *b;
            } else if (s->bump < s->end) {
                b = (void **)s->bump;
                s->bump += s->block_size;
            } else {
                list_remove(h, s);
                if (!mark_detached(s))
                    list_push(h, s); /* frees raced in: collect them next round */
                continue;
            }
            s->used++;
            STAT_ADD(h->net_bytes, s->block_size);
            return b;
        }
        if (take_notified(h, h) || span_new(h, c, true))
            continue;
        /* Only on the way to the pool, whose lock this takes too: a program whose threads
         * come and go keeps abandoned heaps for good, and checking them on every slow path
         * put a global lock on every thread's page turnover. */
        if (atomic_load_explicit(&abandoned_count, memory_order_relaxed) && reclaim_abandoned(NULL, h))
            continue;
        if (!span_new(h, c, false) && !(heap_trim(h) && span_new(h, c, false))) {
            errno = ENOMEM;
            return NULL;
        }
    }
}

/* Owner freed into a span that is detached or now empty. */
void heap_free_slow(struct heap *h, struct span *s)
{
    if (s->detached) {
        uintptr_t x = atomic_exchange_explicit(&s->xfree, 0, memory_order_acquire);
        if (!(x & XFREE_DETACHED)) {
            /* a remote freer is notifying us; take_notified will list the span */
            if (x)
                take_blocks(s, (void *)x);
            return;
        }
        list_push(h, s);
    }
    /* keep the last span of a class to avoid churn; return the others to the pool */
    if (!s->used && (s->prev || s->next)) {
        list_remove(h, s);
        retire(h, s);
    }
}

void heap_free_remote(struct span *s, void *p)
{
    size_t bs = s->block_size; /* s may be reused once the owner has collected p */
    uintptr_t old = atomic_load_explicit(&s->xfree, memory_order_relaxed);
    do
        *(uintptr_t *)p = old & ~XFREE_DETACHED;
    while (!atomic_compare_exchange_weak_explicit(&s->xfree, &old, (uintptr_t)p, memory_order_acq_rel,
                                                  memory_order_relaxed));
    if (old & XFREE_DETACHED) {
        /* we cleared the flag, so telling the owner is our job; the span cannot be
         * released before the owner drains `notified` */
        struct heap *o = atomic_load_explicit(&s->owner, memory_order_relaxed);
        struct span *head = atomic_load_explicit(&o->notified, memory_order_relaxed);
        do
            s->xnext = head;
        while (!atomic_compare_exchange_weak_explicit(&o->notified, &head, s, memory_order_release,
                                                      memory_order_relaxed));
        /* nobody runs that heap: return its emptied pages now rather than when some
         * thread next needs a page */
        if (atomic_load_explicit(&o->abandoned, memory_order_relaxed))
            reclaim_abandoned(o, NULL);
    }
    struct heap *me = alloc_tls_heap;
    if (me)
        STAT_ADD(me->net_bytes, (size_t)0 - bs);
    else
        atomic_fetch_sub_explicit(&orphan_net[orphan_stripe()].bytes, bs, memory_order_relaxed);
}

/* pthread key destructor: leave the heap for others to adopt. Frees this thread still
 * makes afterwards (libc tears down after key destructors) take the remote path. */
COLD_PATH static void heap_abandon(void *arg)
{
    struct heap *h = arg;
    if (alloc_tls_heap == h)
        alloc_tls_heap = NULL;
    /* what goes back to the pool goes in one lock: threads that end together would
     * otherwise queue for it once per size class */
    struct span *empty = h->spare;
    h->spare = NULL;
    h->spare_units = 0;
    if (h->reserve) {
        h->reserve->next = empty;
        empty = h->reserve;
        h->reserve = NULL;
    }
    take_notified(h, h);
    for (unsigned c = 1; c < NUM_CLASSES; c++) {
        struct span *s;
        while ((s = h->cur[c]) != &alloc_empty_span) {
            list_remove(h, s);
            if (detach_or_empty(s)) {
                s->next = empty;
                empty = s;
            }
        }
    }
    pool_free_list(empty);
    atomic_store_explicit(&h->abandoned, true, memory_order_relaxed);
    pool_lock();
    h->next_abandoned = abandoned;
    abandoned = h;
    atomic_fetch_add_explicit(&abandoned_count, 1, memory_order_relaxed);
    pool_unlock();
}

/* First malloc of a thread: adopt an abandoned heap or make one. The TLS slot is set
 * before the pthread key is touched, so a malloc made by pthread internals finds it. */
COLD_PATH static struct heap *heap_acquire(void)
{
    /* The thread's first view of memory, taken before the pool lock: the zero-page grow
     * took 20-140 us in V8 (more with other threads running), which pool_lock's own
     * see_memory made every thread that needed a page wait for. */
    see_all_memory();
    /* one lock: threads that start together queue for it */
    pool_lock();
    struct heap *h = abandoned;
    if (h) {
        abandoned = h->next_abandoned;
        atomic_fetch_sub_explicit(&abandoned_count, 1, memory_order_relaxed);
        atomic_store_explicit(&h->abandoned, false, memory_order_relaxed);
    } else if ((h = pool_meta_alloc_locked(sizeof *h))) {
        for (unsigned c = 0; c < NUM_CLASSES; c++)
            h->cur[c] = &alloc_empty_span;
        h->next_all = all_heaps;
        all_heaps = h;
    }
    pool_unlock();
    if (!h)
        return NULL;
    alloc_tls_heap = h;
    take_notified(h, h);
    int st = 0;
    if (atomic_compare_exchange_strong(&key_state, &st, 1))
        atomic_store(&key_state, pthread_key_create(&exit_key, heap_abandon) ? 3 : 2);
    while ((st = atomic_load(&key_state)) == 1)
        sched_yield();
    if (st == 2)
        pthread_setspecific(exit_key, h);
    return h;
}

COLD_PATH void *heap_first_alloc(unsigned c)
{
    if (!heap_acquire()) {
        errno = ENOMEM;
        return NULL;
    }
    return heap_alloc_class(c);
}

/* Bytes handed out minus bytes freed, over every heap; the caller holds the pool lock. */
COLD_PATH size_t heap_net_bytes_locked(size_t *heaps, size_t *abandoned_heaps)
{
    size_t net = 0, n = 0, a = 0;
    for (unsigned i = 0; i < ORPHAN_STRIPES; i++)
        net += atomic_load_explicit(&orphan_net[i].bytes, memory_order_relaxed);
    for (struct heap *h = all_heaps; h; h = h->next_all, n++)
        net += STAT_READ(h->net_bytes);
    for (struct heap *h = abandoned; h; h = h->next_abandoned)
        a++;
    *heaps = n;
    *abandoned_heaps = a;
    return net;
}
