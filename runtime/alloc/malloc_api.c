/* The standard allocation family on top of the thread heaps and the page pool.
 *
 * Built with -DSPINDLE_ALLOC_PREFIXED the functions are named spindle_malloc etc., so
 * tests can run the allocator beside the system one (sanitizers keep their own malloc). */
#define _DEFAULT_SOURCE /* sysconf under -std=c11 */
#include "alloc_internal.h"

#include <errno.h>
#include <string.h>
#if !defined(__wasm__)
#include <unistd.h>
#endif

#ifdef SPINDLE_ALLOC_PREFIXED
#define API(name) spindle_##name
#else
#define API(name) name
#endif

void *API(malloc)(size_t n);
void API(free)(void *p);

/* Units of a large block: room for n bytes and the span descriptor after them. */
static size_t large_units(size_t n) { return (n + SPAN_DESC_SIZE + UNIT_SIZE - 1) >> UNIT_SHIFT; }

static void *large_alloc(size_t n, size_t align)
{
    if (n > SIZE_MAX - UNIT_SIZE - SPAN_DESC_SIZE) {
        errno = ENOMEM;
        return NULL;
    }
    size_t units = large_units(n), align_units = align > UNIT_SIZE ? align >> UNIT_SHIFT : 1;
    struct span *s = pool_alloc(units, align_units, SPAN_LARGE);
    if (!s && alloc_tls_heap && heap_trim(alloc_tls_heap))
        s = pool_alloc(units, align_units, SPAN_LARGE);
    if (!s) {
        errno = ENOMEM;
        return NULL;
    }
    see_memory(s->start + (s->units << UNIT_SHIFT));
    return s->start;
}

/* Not called `malloc` inside this file: compilers turn malloc+memset(0) into a call to
 * calloc, which would make calloc call itself. malloc is this function under its own name,
 * so a module holds one body of it. */
static void *alloc_bytes(size_t n)
{
    if (LIKELY(n <= SMALL_MAX))
        return heap_alloc_class(size_class(n));
    return large_alloc(n, 0);
}

void *API(malloc)(size_t n) __attribute__((alias("alloc_bytes")));

void API(free)(void *p)
{
    if (!p)
        return;
    struct span *s = span_of(p);
    struct heap *h = alloc_tls_heap;
    if (LIKELY(atomic_load_explicit(&s->owner, memory_order_relaxed) == h)) {
        *(void **)p = s->free;
        s->free = p;
        STAT_ADD(h->net_bytes, (size_t)0 - s->block_size);
        if (UNLIKELY(--s->used == 0 || s->detached))
            heap_free_slow(h, s);
        return;
    }
    if (s->kind == SPAN_SMALL)
        heap_free_remote(s, p);
    else
        pool_free(s);
}

static size_t usable_size(struct span *s)
{
    return s->kind == SPAN_SMALL ? s->block_size : (s->units << UNIT_SHIFT) - SPAN_DESC_SIZE;
}

size_t API(malloc_usable_size)(void *p) { return p ? usable_size(span_of(p)) : 0; }

/* calloc and realloc call the malloc and free paths rather than inlining them (twice, in
 * realloc): the call is nothing beside the zeroing or the copy, and it saves 0.8 KB. */
BUILT_FOR_SIZE void *API(calloc)(size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = alloc_bytes(n);
    return p ? memset(p, 0, n) : NULL;
}

BUILT_FOR_SIZE void *API(realloc)(void *p, size_t n)
{
    if (!p)
        return alloc_bytes(n);
    if (!n) {
        API(free)(p);
        return NULL;
    }
    struct span *s = span_of(p);
    size_t have = usable_size(s);
    if (s->kind == SPAN_SMALL) {
        if (n <= have && n >= have / 2) /* shrinking a lot moves to a smaller class */
            return p;
    } else if (n > SMALL_MAX && n <= SIZE_MAX - UNIT_SIZE - SPAN_DESC_SIZE &&
               pool_resize(s, large_units(n))) {
        see_memory((char *)p + n);
        return p;
    }
    void *q = alloc_bytes(n);
    if (q) {
        memcpy(q, p, n < have ? n : have);
        API(free)(p);
    }
    return q;
}

void *API(reallocarray)(void *p, size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) {
        errno = ENOMEM;
        return NULL;
    }
    return API(realloc)(p, n);
}

/* Small alignments use a size class whose block size is a multiple of the alignment:
 * pages start unit-aligned, so every block is aligned and nothing is over-allocated.
 * Larger alignments get a page-aligned span and the pool gives the slack back. */
static void *aligned(size_t align, size_t n)
{
    if (align <= MIN_ALIGN)
        return alloc_bytes(n);
    if (n <= SMALL_MAX && align <= UNIT_SIZE) {
        unsigned c = size_class(n < align ? align : n);
        while (class_size(c) & (align - 1))
            c++;
        return heap_alloc_class(c);
    }
    return large_alloc(n, align);
}

static bool power_of_two(size_t a) { return a && !(a & (a - 1)); }

void *API(aligned_alloc)(size_t align, size_t n)
{
    if (!power_of_two(align)) {
        errno = EINVAL;
        return NULL;
    }
    return aligned(align, n);
}

int API(posix_memalign)(void **out, size_t align, size_t n)
{
    if (!power_of_two(align) || align % sizeof(void *))
        return EINVAL;
    int saved = errno; /* posix_memalign reports through its result, not errno */
    void *p = aligned(align, n);
    errno = saved;
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

/* Like glibc, round an alignment that is not a power of two up to one. */
void *API(memalign)(size_t align, size_t n)
{
    if (align > SIZE_MAX / 2 + 1) {
        errno = EINVAL;
        return NULL;
    }
    size_t a = MIN_ALIGN;
    while (a < align)
        a <<= 1;
    return aligned(a, n);
}

static size_t page_size(void)
{
#if defined(__wasm__)
    return 65536;
#else
    return (size_t)sysconf(_SC_PAGESIZE);
#endif
}

void *API(valloc)(size_t n) { return aligned(page_size(), n); }

void *API(pvalloc)(size_t n)
{
    size_t pg = page_size();
    if (n > SIZE_MAX - pg) {
        errno = ENOMEM;
        return NULL;
    }
    return aligned(pg, n ? (n + pg - 1) & ~(pg - 1) : pg);
}

#if defined(__wasi__) && !defined(SPINDLE_ALLOC_PREFIXED)
/* wasi-libc calls these internally; defining them keeps its dlmalloc out of the link. Aliases,
 * so that a module has one body of each (a forwarding function got the body inlined again). */
void *__libc_malloc(size_t n) __attribute__((alias("malloc")));
void *__libc_calloc(size_t count, size_t size) __attribute__((alias("calloc")));
void __libc_free(void *p) __attribute__((alias("free")));
void *__libc_realloc(void *p, size_t n) __attribute__((alias("realloc")));
#endif
