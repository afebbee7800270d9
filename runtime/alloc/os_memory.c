/* Where the page pool gets memory: wasm linear memory (memory.grow), or natively one
 * large virtual reservation that behaves like a linear memory, so both builds share the
 * page map and every code path above this file. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE under -std=c11 */
#include "alloc_internal.h"

#define OS_PAGE ((size_t)65536) /* wasm page; also the native growth step */

static uintptr_t align_up(uintptr_t x, size_t a) { return (x + a - 1) & ~(uintptr_t)(a - 1); }

#if defined(__wasm__)

#include <spindle/memory.h>

extern unsigned char __heap_base;

/* The pool starts at __heap_base and owns everything up to the current memory size. */
bool os_memory_init(char **start, char **limit)
{
    uintptr_t s = align_up((uintptr_t)&__heap_base, UNIT_SIZE);
    uintptr_t l = (uintptr_t)__builtin_wasm_memory_size(0) * OS_PAGE;
    *start = (char *)s;
    *limit = (char *)(l > s ? l : s);
    return true;
}

/* Make [*top, *top + bytes) usable. If someone else grew memory since our last growth,
 * the new pages do not follow ours: restart *top at them (the stranded tail is lost,
 * it is at most one growth step). */
bool os_memory_grow(char **limit, char **top, size_t bytes)
{
    for (;;) {
        if (bytes > UINTPTR_MAX - OS_PAGE - (uintptr_t)*top) /* past the 4 GiB address space */
            return false;
        if ((uintptr_t)*top + bytes <= (uintptr_t)*limit)
            return true;
        uintptr_t from = (uintptr_t)*top > (uintptr_t)*limit ? (uintptr_t)*top : (uintptr_t)*limit;
        size_t pages = (align_up((uintptr_t)*top + bytes, OS_PAGE) - from) / OS_PAGE;
        if (!pages)
            pages = 1;
        size_t granted;
        size_t old = spindle_memory_grow(pages, &granted); /* the policy's step: often more */
        if (old == (size_t)-1)
            return false;
        uintptr_t base = (uintptr_t)old * OS_PAGE;
        if (base != (uintptr_t)*limit)
            *top = (char *)base;
        *limit = (char *)(base + granted * OS_PAGE);
    }
}

#else

#include <sys/mman.h>

static uintptr_t reserve_end;
uintptr_t alloc_map_base;

/* Reserve address space once; the kernel commits pages only when touched. */
bool os_memory_init(char **start, char **limit)
{
    size_t size = NATIVE_RESERVE_MAX;
    for (; size >= ((size_t)256 << 20); size /= 4) {
        void *p =
            mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            continue;
        uintptr_t s = align_up((uintptr_t)p, UNIT_SIZE);
        alloc_map_base = s;
        reserve_end = (uintptr_t)p + size;
        *start = *limit = (char *)s;
        return true;
    }
    return false;
}

bool os_memory_grow(char **limit, char **top, size_t bytes)
{
    if (bytes > reserve_end - (uintptr_t)*top)
        return false;
    uintptr_t want = align_up((uintptr_t)*top + bytes, OS_PAGE);
    if (want > (uintptr_t)*limit)
        *limit = (char *)(want < reserve_end ? want : reserve_end);
    return true;
}

#endif
