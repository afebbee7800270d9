/* Page pool: hands out runs of 16 KiB units (spans) to every thread and size class, takes
 * them back, and coalesces neighbours so freed memory can serve any later request (wasm
 * memory never shrinks, so reuse is the only way to stay small). One lock: it is taken
 * only when a heap needs a new page, returns an empty one, or for large blocks.
 *
 * Every span's descriptor sits in its own last bytes, so splitting and merging never need
 * metadata from elsewhere (no failure while freeing, no metadata islands that would stop
 * free runs from coalescing). Splitting gives the front part a new descriptor and leaves
 * the old one to the back part. Free memory is either a free span in a bin, or the
 * "wilderness" [top, limit) at the end, which absorbs free spans that touch it. Only heaps
 * come from separate metadata units (the page map is in bss). */
#define _DEFAULT_SOURCE /* sched_yield under -std=c11 */
#include "alloc_internal.h"

#include <sched.h>
#include <string.h>

#define NUM_BINS 40 /* 1..16 units exact, then one bin per power of two */

struct span alloc_empty_span;
struct span *alloc_map[MAP_UNITS];

static atomic_int lock_word;
static bool ready, broken;
static char *pool_start, *top, *limit;
static struct span *bins[NUM_BINS];
static uint64_t bin_mask;
static char *meta_cur, *meta_end;
static struct span meta_span = {.kind = SPAN_META};
static size_t span_bytes, peak_span_bytes, large_bytes;
static size_t lock_count; /* written under the lock */

/* Spin, then yield: blocking waits are not allowed on a browser main thread. */
void pool_lock(void)
{
    /* Descriptors live in the spans: memory another thread grew must be in this thread's
     * view before they are read or written here or by the caller (see_memory). The view is
     * brought up to date before the lock is taken: in V8 that refresh (a memory.grow(0))
     * took 0.1-3 ms with 16 threads running, and each thread's first page after a growth
     * paid it inside the one lock that every thread's first pages go through, so 16 threads
     * waited for each other's refreshes (docs/ALLOCATOR.md, "The pool lock"). */
#if defined(__wasm__)
    see_memory(__atomic_load_n(&limit, __ATOMIC_RELAXED));
#endif
    for (unsigned spins = 0; atomic_exchange_explicit(&lock_word, 1, memory_order_acquire);) {
        while (atomic_load_explicit(&lock_word, memory_order_relaxed))
            if (++spins % 64 == 0)
                sched_yield();
    }
    lock_count++;
    if (limit) /* grown again since the look above: rare */
        see_memory(limit);
}

void pool_unlock(void) { atomic_store_explicit(&lock_word, 0, memory_order_release); }

static size_t unit_index(const char *p) { return ((uintptr_t)p - alloc_map_base) >> UNIT_SHIFT; }

static void map_set(char *unit, struct span *s) { alloc_map[unit_index(unit)] = s; }

/* Span covering a unit, or NULL where the pool has nothing (before the start, in the
 * wilderness, or in a gap that another memory.grow user took). Acquire: the first unit of a
 * heap's reserve changes hands without the lock (pool_carve), and a neighbour looked up
 * here must come with its descriptor. */
static struct span *map_get(char *unit)
{
    return unit < pool_start || unit >= top ? NULL
                                            : __atomic_load_n(&alloc_map[unit_index(unit)], __ATOMIC_ACQUIRE);
}

/* Whether a neighbour is free to merge with. Its kind is read atomically: a reserve's owner
 * turns the reserve's last piece into a span without the lock (pool_carve). */
static bool is_free(const struct span *s)
{
    return s && __atomic_load_n(&s->kind, __ATOMIC_RELAXED) == SPAN_FREE;
}

static char *span_end(const struct span *s) { return s->start + (s->units << UNIT_SHIFT); }

/* The ends of every span must map to it (neighbours are found through them); small
 * spans map every unit because any unit can hold a block that gets freed. */
static void map_span(struct span *s)
{
    char *last = span_end(s) - UNIT_SIZE;
    if (s->kind == SPAN_SMALL)
        for (char *u = s->start; u < last; u += UNIT_SIZE)
            map_set(u, s);
    map_set(s->start, s);
    map_set(last, s);
}

/* Heaps live in metadata units taken from the wilderness, packed in whole cache lines so
 * two threads' heaps never share one. */
static void *meta_alloc_locked(size_t size)
{
    size = (size + CACHE_LINE - 1) & ~(size_t)(CACHE_LINE - 1);
    if ((size_t)(meta_end - meta_cur) < size) {
        if (!os_memory_grow(&limit, &top, UNIT_SIZE))
            return NULL;
        meta_cur = top;
        meta_end = top + UNIT_SIZE;
        top += UNIT_SIZE;
        map_set(meta_cur, &meta_span);
    }
    void *p = meta_cur;
    meta_cur += size;
    return memset(p, 0, size); /* the unit may have been a block before it came back to the top */
}

/* Unit-aligned bytes from the wilderness, growing memory if needed. */
static char *take_top(size_t bytes)
{
    if (!os_memory_grow(&limit, &top, bytes))
        return NULL;
    char *p = top;
    top += bytes;
    return p;
}

static struct span *desc_make(char *start, size_t units, enum span_kind kind)
{
    struct span *d = (struct span *)(start + (units << UNIT_SHIFT) - SPAN_DESC_SIZE);
    memset(d, 0, sizeof *d);
    d->start = start;
    d->units = units;
    d->kind = (uint8_t)kind;
    return d;
}

static unsigned bin_of(size_t units) { return units <= 16 ? (unsigned)units - 1 : 12 + floor_log2(units); }

static void bin_insert(struct span *s)
{
    unsigned b = bin_of(s->units);
    s->kind = SPAN_FREE;
    s->prev = NULL;
    s->next = bins[b];
    if (s->next)
        s->next->prev = s;
    bins[b] = s;
    bin_mask |= (uint64_t)1 << b;
    map_span(s);
}

static void bin_remove(struct span *s)
{
    unsigned b = bin_of(s->units);
    if (s->prev)
        s->prev->next = s->next;
    else if (!(bins[b] = s->next))
        bin_mask &= ~((uint64_t)1 << b);
    if (s->next)
        s->next->prev = s->prev;
}

/* Cut the first `units` units off s as a new span of the same kind; s keeps the rest
 * (and its descriptor). Both have their ends mapped, so either can be released at once.
 * s must not be in a bin. */
static struct span *split_front(struct span *s, size_t units)
{
    struct span *f = desc_make(s->start, units, (enum span_kind)s->kind);
    s->start += units << UNIT_SHIFT;
    s->units -= units;
    map_set(f->start, f);
    map_set(span_end(f) - UNIT_SIZE, f);
    map_set(s->start, s);
    return f;
}

/* Give a span back: merge with free neighbours, and with the wilderness if it ends there. */
static void release_locked(struct span *s)
{
    s->kind = SPAN_FREE;
    struct span *p = map_get(s->start - UNIT_SIZE);
    if (is_free(p)) {
        bin_remove(p);
        s->start = p->start;
        s->units += p->units;
    }
    if (span_end(s) == top) {
        top = s->start;
        return;
    }
    struct span *n = map_get(span_end(s));
    if (is_free(n)) {
        bin_remove(n);
        n->start = s->start;
        n->units += s->units;
        s = n;
    }
    bin_insert(s);
}

/* First fit in the smallest bin that can hold `units`. */
static struct span *take_free(size_t units)
{
    unsigned b = bin_of(units);
    for (uint64_t m = bin_mask >> b; m; m &= m - 1) {
        unsigned i = b + (unsigned)__builtin_ctzll(m);
        for (struct span *s = bins[i]; s; s = s->next)
            if (s->units >= units) {
                bin_remove(s);
                return s;
            }
    }
    return NULL;
}

static bool init_locked(void)
{
    if (!ready && !broken) {
        if (os_memory_init(&pool_start, &limit)) {
            top = pool_start;
            ready = true;
        } else {
            broken = true;
        }
    }
    return ready;
}

/* Trim s to `units` starting at a multiple of align_units units; spare ends go back.
 * s is marked in use first so the spare pieces do not merge back into it. */
static struct span *fit(struct span *s, size_t units, size_t align_units, enum span_kind kind)
{
    size_t a = align_units << UNIT_SHIFT;
    size_t head =
        (size_t)((((uintptr_t)s->start + a - 1) & ~(uintptr_t)(a - 1)) - (uintptr_t)s->start) >> UNIT_SHIFT;
    s->kind = (uint8_t)kind;
    map_span(s);
    if (head)
        release_locked(split_front(s, head));
    if (s->units > units) {
        struct span *f = split_front(s, units);
        release_locked(s);
        s = f;
    }
    return s;
}

#ifdef SPINDLE_ALLOC_DEBUG
#include <stdio.h>
#include <stdlib.h>
static void broken_invariant(const char *what, const char *where, size_t a, size_t b)
{
    fprintf(stderr, "pool invariant broken after %s: %s (%zu, %zu)\n", where, what, a, b);
    abort();
}

/* Walk every span from the start to the wilderness and check the pool's invariants:
 * ends mapped, descriptors at span ends, no two adjacent free spans (coalescing), no free
 * span touching the wilderness, bins holding exactly the free spans, and every unit
 * accounted for (free + in spans + metadata + foreign gaps = the pool). Returns the free
 * bytes, and the largest single run a request could get, through the out parameters. */
static void check_locked(const char *where, size_t *free_bytes, size_t *largest_free)
{
    size_t free_units = 0, binned_units = 0, span_units = 0, other_units = 0, largest = 0;
    bool prev_free = false;
    for (char *u = pool_start; u < top;) {
        struct span *s = map_get(u);
        if (!s || s == &meta_span) { /* a foreign gap, or a metadata unit */
            u += UNIT_SIZE;
            other_units++;
            prev_free = false;
            continue;
        }
        if (s->start != u || !s->units || map_get(span_end(s) - UNIT_SIZE) != s || span_end(s) > top ||
            (char *)s != span_end(s) - SPAN_DESC_SIZE)
            broken_invariant("span geometry", where, (uintptr_t)u, s->units);
        if (s->kind == SPAN_FREE && prev_free)
            broken_invariant("two adjacent free spans", where, (uintptr_t)u, s->units);
        if (s->kind == SPAN_FREE && span_end(s) == top)
            broken_invariant("free span not merged into the wilderness", where, (uintptr_t)u, s->units);
        if (s->kind == SPAN_FREE) {
            free_units += s->units;
            if (s->units > largest)
                largest = s->units;
        } else {
            span_units += s->units;
        }
        prev_free = s->kind == SPAN_FREE;
        u = span_end(s);
    }
    for (unsigned b = 0; b < NUM_BINS; b++)
        for (struct span *s = bins[b]; s; s = s->next) {
            if (s->kind != SPAN_FREE || bin_of(s->units) != b)
                broken_invariant("bin holds a wrong span", where, b, s->units);
            binned_units += s->units;
        }
    if (free_units != binned_units)
        broken_invariant("free units differ from binned units", where, free_units, binned_units);
    if (span_units << UNIT_SHIFT != span_bytes)
        broken_invariant("span units differ from the footprint counter", where, span_units << UNIT_SHIFT,
                         span_bytes);
    if (free_units + span_units + other_units != (size_t)(top - pool_start) >> UNIT_SHIFT)
        broken_invariant("units not accounted for", where, free_units + span_units + other_units,
                         (size_t)(top - pool_start) >> UNIT_SHIFT);
    size_t wilderness = (size_t)(limit - top);
    *free_bytes = (free_units << UNIT_SHIFT) + wilderness;
    *largest_free = (largest << UNIT_SHIFT) > wilderness ? largest << UNIT_SHIFT : wilderness;
}

/* For tests built with SPINDLE_ALLOC_DEBUG (the fuzzer): check the pool now. */
void spindle_alloc_debug_check(size_t *free_bytes, size_t *largest_free)
{
    pool_lock();
    if (ready)
        check_locked("a test's check", free_bytes, largest_free);
    else
        *free_bytes = *largest_free = 0;
    pool_unlock();
}
#define CHECK(where)                                                                                         \
    do {                                                                                                     \
        size_t f_, l_;                                                                                       \
        check_locked(where, &f_, &l_);                                                                       \
    } while (0)
#else
#define CHECK(where) ((void)0)
#endif

static struct span *alloc_locked(size_t units, size_t align_units, enum span_kind kind)
{
    units += !units;
    if (units > (SIZE_MAX >> UNIT_SHIFT) / 2 || align_units > (SIZE_MAX >> UNIT_SHIFT) / 2)
        return NULL;
    size_t want = units + align_units - 1;
    struct span *s = NULL;
    if (init_locked()) {
        s = take_free(want);
        if (!s) {
            char *p = take_top(want << UNIT_SHIFT);
            s = p ? desc_make(p, want, SPAN_FREE) : NULL;
        }
        if (s)
            s = fit(s, units, align_units, kind);
    }
    if (s) {
        map_span(s);
        span_bytes += s->units << UNIT_SHIFT;
        bool new_peak = span_bytes > peak_span_bytes;
        if (new_peak)
            peak_span_bytes = span_bytes;
        if (kind == SPAN_LARGE) {
            large_bytes += (s->units << UNIT_SHIFT) - SPAN_DESC_SIZE; /* usable bytes */
            atomic_store_explicit(&s->owner, &alloc_no_heap, memory_order_relaxed);
        }
        if (new_peak || kind == SPAN_LARGE)
            alloc_note_peak_locked(large_bytes);
    }
    return s;
}

static void free_locked(struct span *s);

struct span *pool_take(struct span *back, size_t units, size_t align_units, enum span_kind kind)
{
    pool_lock();
    if (back) /* the rest of a heap's old reserve: the pool can merge it with its neighbours */
        free_locked(back);
    struct span *s = alloc_locked(units, align_units, kind);
    CHECK("alloc");
    pool_unlock();
    return s;
}

static void free_locked(struct span *s)
{
    span_bytes -= s->units << UNIT_SHIFT;
    if (s->kind == SPAN_LARGE)
        large_bytes -= (s->units << UNIT_SHIFT) - SPAN_DESC_SIZE;
    release_locked(s);
}

void pool_free(struct span *s)
{
    pool_lock();
    free_locked(s);
    CHECK("free");
    pool_unlock();
}

void pool_free_list(struct span *list)
{
    if (!list)
        return;
    pool_lock();
    for (struct span *s = list, *next; s; s = next) {
        next = s->next;
        free_locked(s);
    }
    CHECK("free");
    pool_unlock();
}

/* Reserves. A heap takes a run of units (a SPAN_RESERVE span, in use as far as the pool
 * knows) in one lock and cuts its spans from the front of it without the lock: with many
 * threads starting at once, taking the lock once per size class, each time with a page fault
 * on the new span's descriptor inside it, serialised their first pages (docs/ALLOCATOR.md,
 * "Reserves"). The pool, under its lock, looks into a reserve only as the neighbour of a span
 * it releases or resizes: through the map entry of the reserve's first unit (which points to
 * the reserve, or to the span just cut from it, published after its descriptor) or of its
 * last unit (the reserve's own descriptor, which stays put). Both are in use, so it never
 * merges with them. Debug builds cut under the lock, so that the invariant checker, which
 * walks every span, never sees a cut half made. */
struct span *pool_carve(struct span *r, size_t units, enum span_kind kind)
{
    if (!r || r->units < units)
        return NULL;
#ifdef SPINDLE_ALLOC_DEBUG
    pool_lock();
#endif
    struct span *f = r;
    if (r->units == units) { /* the last piece: the reserve itself becomes the span */
        __atomic_store_n(&r->kind, (uint8_t)kind, __ATOMIC_RELAXED);
    } else {
        f = desc_make(r->start, units, kind);
        r->start += units << UNIT_SHIFT;
        r->units -= units;
        /* atomic: with one unit left this is also the reserve's last unit, whose entry the
         * span after the reserve reads as its neighbour when it is released */
        __atomic_store_n(&alloc_map[unit_index(r->start)], r, __ATOMIC_RELEASE);
    }
    /* every unit of the span (a small span's blocks are found through any of them), the first
     * one last: it is the one a neighbour's release may be reading */
    for (char *u = span_end(f); u > f->start;) {
        u -= UNIT_SIZE;
        __atomic_store_n(&alloc_map[unit_index(u)], f, __ATOMIC_RELEASE);
    }
#ifdef SPINDLE_ALLOC_DEBUG
    CHECK("carve");
    pool_unlock();
#endif
    return f;
}

/* Resize a large span where it lies: shrink by giving the tail back, grow into a free
 * neighbour or the wilderness. Its descriptor moves to the new end (past the caller's
 * bytes, which the caller sized to leave room for it). */
bool pool_resize(struct span *s, size_t units)
{
    bool ok = false;
    size_t old = s->units;
    pool_lock();
    if (units < old) {
        struct span *f = split_front(s, units);
        atomic_store_explicit(&f->owner, &alloc_no_heap, memory_order_relaxed);
        release_locked(s);
        s = f;
        ok = true;
    } else if (units == old) {
        ok = true;
    } else if (units - old <= (SIZE_MAX >> UNIT_SHIFT) / 2) {
        size_t more = units - old;
        char *end = span_end(s);
        struct span *n = map_get(end);
        if (end == top) {
            char *p = take_top(more << UNIT_SHIFT);
            ok = p == end;
            if (p && !ok) /* another memory.grow user left a gap: give back what we took */
                release_locked(desc_make(p, more, SPAN_FREE));
        } else if (is_free(n) && n->units >= more) {
            bin_remove(n);
            if (n->units > more) {
                split_front(n, more); /* absorbed below; n keeps the rest */
                bin_insert(n);
            }
            ok = true;
        }
        if (ok) {
            struct span *g = (struct span *)(s->start + (units << UNIT_SHIFT) - SPAN_DESC_SIZE);
            memcpy(g, s, sizeof *g);
            g->units = units;
            s = g;
        }
    }
    if (ok) {
        map_span(s);
        span_bytes = span_bytes - (old << UNIT_SHIFT) + (s->units << UNIT_SHIFT);
        large_bytes = large_bytes - (old << UNIT_SHIFT) + (s->units << UNIT_SHIFT);
        if (span_bytes > peak_span_bytes)
            peak_span_bytes = span_bytes;
    }
    CHECK("resize");
    pool_unlock();
    return ok;
}

void *pool_meta_alloc_locked(size_t size) { return init_locked() ? meta_alloc_locked(size) : NULL; }

void pool_stats_locked(struct alloc_pool_stats *out)
{
    out->reserved = (size_t)(limit - pool_start);
    out->span_bytes = span_bytes;
    out->peak_span_bytes = peak_span_bytes;
    out->large_bytes = large_bytes;
    out->locks = lock_count;
}
