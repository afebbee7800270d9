/* Introspection: totals are summed on demand from per-heap counters, so the fast paths
 * only ever write their own heap. */
#include "alloc_internal.h"

#include <spindle/alloc.h>

static size_t peak_in_use; /* guarded by the pool lock */

static size_t in_use_locked(const struct alloc_pool_stats *ps, size_t *heaps, size_t *abandoned)
{
    size_t in_use = heap_net_bytes_locked(heaps, abandoned) + ps->large_bytes;
    if (in_use > peak_in_use)
        peak_in_use = in_use;
    return in_use;
}

/* Called by the pool when the footprint reaches a new high or a large block is made,
 * the moments a new peak of in-use bytes is likely; the peak is a lower bound. */
void alloc_note_peak_locked(size_t large_bytes)
{
    size_t heaps, abandoned, in_use = heap_net_bytes_locked(&heaps, &abandoned) + large_bytes;
    if (in_use > peak_in_use)
        peak_in_use = in_use;
}

void spindle_alloc_stats(struct spindle_alloc_stats *out)
{
    struct alloc_pool_stats ps;
    size_t heaps, abandoned;
    pool_lock();
    pool_stats_locked(&ps);
    out->in_use_bytes = in_use_locked(&ps, &heaps, &abandoned);
    out->peak_in_use_bytes = peak_in_use;
    out->page_bytes = ps.span_bytes;
    out->peak_page_bytes = ps.peak_span_bytes;
    out->reserved_bytes = ps.reserved;
    out->heaps = heaps;
    out->abandoned_heaps = abandoned;
    out->pool_locks = ps.locks;
    pool_unlock();
}
