// Linked with --malloc=dlmalloc only (cli/build/cc.js wraps malloc, calloc and realloc). V8 keeps a
// per-thread copy of a shared memory's size and refreshes it lazily after another thread's
// memory.grow; until then a bulk operation (memset/memcpy, i.e. memory.fill/copy) by this thread
// into the newly grown part traps "out of bounds" (tests/alloc/wasm_grow_fill_race.c). dlmalloc
// hands one thread memory another thread grew, so refresh this thread's view (a zero-page grow)
// whenever a block ends beyond the size this thread sees. Spindle's allocator does the same
// itself.
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t size);

static void *seen_by_this_thread(void *p, size_t size)
{
    if (p && (uint64_t)(uintptr_t)p + size > (uint64_t)__builtin_wasm_memory_size(0) * 65536u) {
        __builtin_wasm_memory_grow(0, 0);
    }
    return p;
}

void *__wrap_malloc(size_t size) { return seen_by_this_thread(__real_malloc(size), size); }

// dlmalloc's calloc clears the block before returning it: clear it here, after the refresh.
void *__wrap_calloc(size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __wrap_malloc(bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

// dlmalloc's realloc copies into the new block itself: when the block cannot stay where it is,
// move it here, after the refresh.
void *__wrap_realloc(void *old, size_t size)
{
    if (!old)
        return __wrap_malloc(size);
    if (size == 0) {
        free(old);
        return NULL;
    }
    size_t usable = malloc_usable_size(old);
    if (size <= usable)
        return old;
    void *p = __wrap_malloc(size);
    if (!p)
        return NULL; // errno is ENOMEM, the old block is untouched
    memcpy(p, old, usable);
    free(old);
    return p;
}
