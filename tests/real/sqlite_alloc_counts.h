// Counts the calls SQLite makes to its allocator, per thread: wrappers around SQLite's own
// allocator methods (SQLITE_CONFIG_MALLOC), installed before SQLite initializes. They answer
// whether malloc is on a workload's hot path (docs/PORTING.md, "Measured").
#include <stdio.h>

#include "sqlite3.h"

struct alloc_counts {
    long long mallocs, reallocs, frees, bytes;
};

static sqlite3_mem_methods counted_mem; // SQLite's methods, which the wrappers call
static _Thread_local struct alloc_counts thread_counts;

static void *counting_malloc(int n)
{
    thread_counts.mallocs++;
    thread_counts.bytes += n;
    return counted_mem.xMalloc(n);
}

static void counting_free(void *p)
{
    thread_counts.frees++;
    counted_mem.xFree(p);
}

static void *counting_realloc(void *p, int n)
{
    thread_counts.reallocs++;
    thread_counts.bytes += n;
    return counted_mem.xRealloc(p, n);
}

/** Wraps SQLite's allocator; call before SQLite initializes (before the first open). */
static int count_allocations(void)
{
    static sqlite3_mem_methods wrapped;
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &counted_mem) != SQLITE_OK)
        return 0;
    wrapped = counted_mem;
    wrapped.xMalloc = counting_malloc;
    wrapped.xFree = counting_free;
    wrapped.xRealloc = counting_realloc;
    return sqlite3_config(SQLITE_CONFIG_MALLOC, &wrapped) == SQLITE_OK;
}

/** The calling thread's counts so far. */
static struct alloc_counts thread_alloc_counts(void) { return thread_counts; }
