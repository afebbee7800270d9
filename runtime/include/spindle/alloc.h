/* Spindle allocator: introspection.
 *
 * The allocator itself replaces the standard family (malloc, free, calloc, realloc,
 * aligned_alloc, posix_memalign, memalign, valloc, pvalloc, malloc_usable_size,
 * reallocarray) when runtime/alloc is linked; nothing needs to be called to set it up. */
#ifndef SPINDLE_ALLOC_H
#define SPINDLE_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct spindle_alloc_stats {
    size_t in_use_bytes;      /* usable bytes of live blocks, summed over all threads now */
    size_t peak_in_use_bytes; /* highest in_use_bytes seen when a page was taken (sampled) */
    size_t page_bytes;        /* bytes of pages holding blocks: small-block pages + large blocks */
    size_t peak_page_bytes;   /* exact peak of page_bytes: the allocator's footprint */
    size_t reserved_bytes;    /* bytes taken from the OS / linear memory (never shrinks in wasm) */
    size_t heaps;             /* thread heaps ever created (live + abandoned) */
    size_t abandoned_heaps;   /* heaps of exited threads not adopted yet */
    size_t pool_locks;        /* times any thread took the page pool's lock (the shared slow path) */
};

/* Fill *out. Cost is proportional to the number of thread heaps; safe from any thread. */
void spindle_alloc_stats(struct spindle_alloc_stats *out);

#ifdef __cplusplus
}
#endif

#endif
