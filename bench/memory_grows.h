/* How many times the module's linear memory grew (spindle/memory.h), for the benchmarks' RESULT
 * lines: fewer, larger grows are cheaper in V8. -1 natively and in builds without Spindle's
 * runtime (--bare). */
#ifndef SPINDLE_BENCH_MEMORY_GROWS_H
#define SPINDLE_BENCH_MEMORY_GROWS_H

#include <stddef.h>

#if defined(__wasm__)
__attribute__((weak)) size_t spindle_memory_grow_count(void);
#endif

static inline long long memory_grows(void)
{
#if defined(__wasm__)
    if (spindle_memory_grow_count)
        return (long long)spindle_memory_grow_count();
#endif
    return -1;
}

#endif
