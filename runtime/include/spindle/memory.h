/* Spindle: growth of the module's linear memory.
 *
 * Everything that grows memory in a Spindle module goes through spindle_memory_grow: the
 * allocator (and with it the file system, whose file data it allocates) and, in
 * --malloc=dlmalloc builds, sbrk. So the growth policy is in one place: V8 makes each grow of a
 * shared memory reach every thread, which is slow when it happens in 64 KiB steps, so memory
 * grows by half its size at a time (at least 1 MiB, at most 64 MiB); near the maximum the step
 * halves until it fits, down to what is needed. */
#ifndef SPINDLE_MEMORY_H
#define SPINDLE_MEMORY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make at least `pages` more 64 KiB pages exist. Returns the memory size in pages before the
 * grow (where the new pages start) and sets *granted to the number of pages added, or returns
 * (size_t)-1 if not even `pages` fit below the maximum. */
size_t spindle_memory_grow(size_t pages, size_t *granted);

/* memory.grow calls that added pages since the program started. */
size_t spindle_memory_grow_count(void);

#ifdef __cplusplus
}
#endif

#endif
