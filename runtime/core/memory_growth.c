// The one growth policy for linear memory (spindle/memory.h says why it grows in large steps).
// Untouched pages cost address space, not RAM: the engine reserves the maximum up front and the
// kernel backs pages when they are first written.
#include <spindle/memory.h>

#include <stdatomic.h>
#include <stdint.h>

#define PAGES_PER_MIB 16
#define GROW_FLOOR_PAGES (1 * PAGES_PER_MIB)
#define GROW_CAP_PAGES (64 * PAGES_PER_MIB)

static atomic_size_t grow_count;

static size_t step_for(size_t pages)
{
    size_t step = __builtin_wasm_memory_size(0) / 2;
    if (step < GROW_FLOOR_PAGES)
        step = GROW_FLOOR_PAGES;
    if (step > GROW_CAP_PAGES)
        step = GROW_CAP_PAGES;
    return pages > step ? pages : step;
}

// Near the maximum (which wasm cannot ask for) the step halves until it fits, down to `pages`:
// a failed memory.grow costs nothing, and the last steps stay large.
size_t spindle_memory_grow(size_t pages, size_t *granted)
{
    for (size_t step = step_for(pages);; step = step / 2 > pages ? step / 2 : pages) {
        size_t old = __builtin_wasm_memory_grow(0, step);
        if (old != SIZE_MAX) {
            atomic_fetch_add_explicit(&grow_count, 1, memory_order_relaxed);
            *granted = step;
            return old;
        }
        if (step == pages)
            return SIZE_MAX;
    }
}

size_t spindle_memory_grow_count(void) { return atomic_load_explicit(&grow_count, memory_order_relaxed); }
