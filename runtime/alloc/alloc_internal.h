/* Spindle allocator: shared definitions of the page pool and the thread heaps.
 * Internal to runtime/alloc; the public interface is <spindle/alloc.h>. */
#ifndef SPINDLE_ALLOC_INTERNAL_H
#define SPINDLE_ALLOC_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Memory is handed out in 16 KiB units: small enough that a thread's partly used
 * page per size class stays cheap, big enough that the page map stays tiny. */
#define UNIT_SHIFT 14
#define UNIT_SIZE ((size_t)1 << UNIT_SHIFT)
/* The page map is flat: one span pointer per unit of the whole address range the pool
 * can ever use, in bss. A two-level map needs leaves allocated as the pool grows, and a
 * leaf placed between spans is an island that stops free memory on either side from
 * coalescing (one per 64 MiB in wasm: a program that freed 400 MiB could not get one
 * 80 MiB block). Untouched bss pages cost no physical memory. */
#if defined(__wasm__)
#define MAP_UNITS ((size_t)1 << (32 - UNIT_SHIFT)) /* the whole 4 GiB of wasm32: 1 MiB */
#else
#define NATIVE_RESERVE_MAX ((size_t)32 << 30) /* virtual reservation natively */
#define MAP_UNITS (NATIVE_RESERVE_MAX >> UNIT_SHIFT)
#endif

#define MIN_ALIGN 16
#define SMALL_MAX 65536  /* larger requests get their own span */
#define NUM_CLASSES 81   /* class 0 unused; 1..8: 16..128 step 16; then 8 per doubling */

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Built for size whatever the file's -O level (malloc_api.c and thread_heap.c are -O2 for
 * their per-call paths; cli/build/runtime-lib.js). gcc, which builds the allocator natively in the
 * tests, has no such attribute. */
#ifdef __clang__
#define BUILT_FOR_SIZE __attribute__((minsize))
#else
#define BUILT_FOR_SIZE
#endif
/* A function that runs once per thread or when memory runs out. */
#define COLD_PATH __attribute__((cold)) BUILT_FOR_SIZE

/* SPAN_RESERVE: a run a heap cuts its spans from without the pool lock (pool_carve) */
enum span_kind { SPAN_FREE = 0, SPAN_SMALL, SPAN_LARGE, SPAN_META, SPAN_RESERVE };

/* Bit 0 of span.xfree: the owner detached this full span from its class list and
 * waits to be told (through heap.notified) when another thread frees into it. */
#define XFREE_DETACHED ((uintptr_t)1)

struct heap;

/* Descriptor of a run of units, stored at the end of the run: blocks (and large
 * allocations) start at the run's first byte, so a span placed at an aligned unit gives
 * aligned blocks. */
struct span {
    /* fields the owner thread touches on every malloc/free */
    void *free;                  /* owner's free list of blocks */
    uint32_t used;               /* blocks not on `free` (live or in xfree) */
    uint32_t block_size;
    _Atomic(struct heap *) owner; /* read by any thread, changed only on adoption */
    uint8_t detached;            /* owner-private: not in a class list */
    uint8_t size_class;
    uint8_t kind;
    /* owner slow path */
    char *bump;                  /* next never-used block (lazy carving) */
    char *end;                   /* end of the last whole block */
    struct span *next, *prev;    /* class list of the owner, or free bin */
    /* cross-thread frees */
    _Atomic uintptr_t xfree;     /* Treiber stack of blocks freed by other threads */
    struct span *xnext;          /* link in the owner heap's `notified` stack */
    /* geometry */
    char *start;
    size_t units;
};

/* A span's descriptor occupies the last bytes of its own memory, in whole cache lines so
 * the owner's updates do not share a line with the last block (which another thread may
 * be writing). */
#define CACHE_LINE 64
#define SPAN_DESC_SIZE ((sizeof(struct span) + CACHE_LINE - 1) & ~(size_t)(CACHE_LINE - 1))

struct heap {
    struct span *cur[NUM_CLASSES];   /* class lists; head is the span malloc uses */
    _Atomic(struct span *) notified; /* detached spans that got remote frees */
    /* bytes handed out minus bytes freed by this thread, modulo SIZE_MAX+1:
     * summed over all heaps it is the bytes in use. */
    size_t net_bytes;
    struct span *spare;              /* empty spans kept for reuse (linked by next) */
    size_t spare_units;
    struct span *reserve;            /* units its new spans are cut from (pool_carve) */
    size_t reserve_refills;          /* how many reserves it took: each is larger */
    struct heap *next_all;           /* every heap ever made (for stats) */
    struct heap *next_abandoned;
    atomic_bool abandoned;           /* its thread exited and nobody adopted it yet */
};

/* Read-only span with an empty free list: class lists with no span point here, so the
 * malloc fast path needs no NULL test. */
extern struct span alloc_empty_span;
/* Owner of large spans: a heap no thread ever has. */
extern struct heap alloc_no_heap;
extern _Thread_local struct heap *alloc_tls_heap;

extern struct span *alloc_map[MAP_UNITS];
#if defined(__wasm__)
#define alloc_map_base ((uintptr_t)0)
#else
extern uintptr_t alloc_map_base;
#endif

/* Span holding a pointer the allocator handed out. */
static inline struct span *span_of(const void *p)
{
    return alloc_map[((uintptr_t)p - alloc_map_base) >> UNIT_SHIFT];
}

static inline unsigned floor_log2(size_t n)
{
    return (unsigned)(sizeof(unsigned long) * 8 - 1) - (unsigned)__builtin_clzl((unsigned long)n);
}

/* Size classes: multiples of 16 up to 128, then 8 classes per power of two, so the
 * space wasted inside a block is under 12.5%. */
static inline unsigned size_class(size_t n)
{
    if (n <= 128)
        return (unsigned)((n + 15 + !n) >> 4);
    unsigned e = floor_log2(n - 1);
    return (e - 7) * 8 + (unsigned)((n - 1) >> (e - 3)) + 1;
}

static inline size_t class_size(unsigned c)
{
    if (c <= 8)
        return (size_t)c * 16;
    unsigned e = 7 + (c - 9) / 8, j = (c - 9) % 8 + 1;
    return ((size_t)1 << e) + ((size_t)j << (e - 3));
}

/* Statistics counters are written only by their owner; natively they are relaxed atomics
 * (a plain store on x86), in wasm a plain store because every wasm atomic store is
 * sequentially consistent and costs a fence. A racy read only affects a statistic. */
#if defined(__wasm__)
#define STAT_ADD(field, delta) ((field) += (delta))
#define STAT_READ(field) (*(volatile size_t *)&(field))
#else
#define STAT_ADD(field, delta)                                                                               \
    __atomic_store_n(&(field), __atomic_load_n(&(field), __ATOMIC_RELAXED) + (delta), __ATOMIC_RELAXED)
#define STAT_READ(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)
#endif

/* V8 (Node 20, Chrome) checks memory.fill/memory.copy against a per-thread copy of the
 * memory size that it refreshes lazily after another thread's memory.grow; a memset
 * into freshly grown memory can then trap. A zero-page memory.grow refreshes the calling
 * thread's copy, so before a thread starts using a span that ends beyond what it has
 * seen, it does one. Slow paths only. */
#if defined(__wasm__)
extern _Thread_local uintptr_t alloc_seen_end;
static inline void see_all_memory(void)
{
    __builtin_wasm_memory_grow(0, 0);
    alloc_seen_end = (uintptr_t)__builtin_wasm_memory_size(0) * 65536;
}
static inline void see_memory(const void *end)
{
    if (UNLIKELY((uintptr_t)end > alloc_seen_end))
        see_all_memory();
}
#else
static inline void see_all_memory(void) {}
static inline void see_memory(const void *end) { (void)end; }
#endif

/* page_pool.c: units for spans, under one lock (slow paths only). */
/* A span of `units` units at a multiple of `align_units` units, for `kind`; `back` (NULL: none)
 * goes back to the pool first, in the same lock (a heap's old reserve as it takes a new one). */
struct span *pool_take(struct span *back, size_t units, size_t align_units, enum span_kind kind);
static inline struct span *pool_alloc(size_t units, size_t align_units, enum span_kind kind)
{
    return pool_take(NULL, units, align_units, kind);
}
void pool_free(struct span *s);
void pool_free_list(struct span *list); /* spans linked by next, in one lock */
bool pool_resize(struct span *s, size_t units);
void *pool_meta_alloc_locked(size_t size); /* zeroed; the caller holds the pool lock */
/* Cuts `units` off the front of a heap's reserve (a SPAN_RESERVE span from pool_take) as a span
 * of `kind`, without the pool lock: NULL if the reserve is smaller; the reserve itself if it is
 * exactly that size, which then is no reserve any more. Only the reserve's owner cuts it. */
struct span *pool_carve(struct span *r, size_t units, enum span_kind kind);
void pool_lock(void);
void pool_unlock(void);
struct alloc_pool_stats {
    size_t reserved, span_bytes, peak_span_bytes, large_bytes, locks;
};
void pool_stats_locked(struct alloc_pool_stats *out);

/* os_memory.c: where the units come from. */
bool os_memory_init(char **start, char **limit);
bool os_memory_grow(char **limit, char **top, size_t bytes);

/* thread_heap.c: slow paths. */
void *heap_alloc_slow(struct heap *h, unsigned c);
void *heap_first_alloc(unsigned c);
void heap_free_slow(struct heap *h, struct span *s);
bool heap_trim(struct heap *h);
void heap_free_remote(struct span *s, void *p);
size_t heap_net_bytes_locked(size_t *heaps, size_t *abandoned_heaps);

/* alloc_stats.c; the caller holds the pool lock */
void alloc_note_peak_locked(size_t large_bytes);

/* malloc fast path for a small class */
static inline void *heap_alloc_class(unsigned c)
{
    struct heap *h = alloc_tls_heap;
    if (UNLIKELY(!h))
        return heap_first_alloc(c);
    struct span *s = h->cur[c];
    void **b = (void **)s->free;
    if (LIKELY(b)) {
        s->free = *b;
        s->used++;
        STAT_ADD(h->net_bytes, s->block_size);
        return b;
    }
    return heap_alloc_slow(h, c);
}

#endif
