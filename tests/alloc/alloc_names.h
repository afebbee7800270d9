/* Which allocator the tests call: the prefixed spindle_* build (natively, beside the
 * sanitizers' own malloc) or the standard names (a wasm build links runtime/alloc as
 * the program's malloc). */
#ifndef ALLOC_NAMES_H
#define ALLOC_NAMES_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* posix_memalign, reallocarray under -std=c11 */
#endif

#include <stddef.h>

#ifdef SPINDLE_ALLOC_PREFIXED
void *spindle_malloc(size_t n);
void spindle_free(void *p);
void *spindle_calloc(size_t count, size_t size);
void *spindle_realloc(void *p, size_t n);
void *spindle_aligned_alloc(size_t align, size_t n);
int spindle_posix_memalign(void **out, size_t align, size_t n);
void *spindle_memalign(size_t align, size_t n);
size_t spindle_malloc_usable_size(void *p);
#define T_MALLOC spindle_malloc
#define T_FREE spindle_free
#define T_CALLOC spindle_calloc
#define T_REALLOC spindle_realloc
#define T_ALIGNED_ALLOC spindle_aligned_alloc
#define T_POSIX_MEMALIGN spindle_posix_memalign
#define T_MEMALIGN spindle_memalign
#define T_USABLE spindle_malloc_usable_size
#else
#include <stdlib.h>
/* declared here: wasi-libc's headers omit the legacy ones */
void *memalign(size_t align, size_t n);
size_t malloc_usable_size(void *p);
/* Called through volatile pointers so the compiler cannot treat them as the builtin
 * malloc family: it would elide allocations, and it assumes malloc leaves errno alone
 * (it forwards `errno = 0` across a failing malloc). */
static void *(*volatile T_MALLOC)(size_t) = malloc;
static void (*volatile T_FREE)(void *) = free;
static void *(*volatile T_CALLOC)(size_t, size_t) = calloc;
static void *(*volatile T_REALLOC)(void *, size_t) = realloc;
static void *(*volatile T_ALIGNED_ALLOC)(size_t, size_t) = aligned_alloc;
static int (*volatile T_POSIX_MEMALIGN)(void **, size_t, size_t) = posix_memalign;
static void *(*volatile T_MEMALIGN)(size_t, size_t) = memalign;
static size_t (*volatile T_USABLE)(void *) = malloc_usable_size;
#endif

#endif
