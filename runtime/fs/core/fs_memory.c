/* Every allocation of the filesystem goes through here, so that tests built
 * with SPINDLE_FS_FAULT_INJECTION can make the n-th allocation fail and check
 * that each operation fails cleanly with nothing half-done. */
#include "fs_core.h"

#include <stdlib.h>

#ifdef SPINDLE_FS_FAULT_INJECTION
/* Allocations left before failures start; negative = never fail. */
_Atomic long spindle_fs_fault_countdown = -1;

static int injected_failure(void)
{
    long left = atomic_load(&spindle_fs_fault_countdown);
    while (left >= 0) {
        if (left == 0)
            return 1;
        if (atomic_compare_exchange_weak(&spindle_fs_fault_countdown, &left, left - 1))
            return 0;
    }
    return 0;
}
#else
static int injected_failure(void) { return 0; }
#endif

void *fs_malloc(size_t size)
{
    if (injected_failure())
        return NULL;
    return malloc(size);
}

void *fs_calloc(size_t count, size_t size)
{
    if (injected_failure())
        return NULL;
    return calloc(count, size);
}

void *fs_realloc(void *ptr, size_t size)
{
    if (injected_failure())
        return NULL;
    return realloc(ptr, size);
}

void fs_free(void *ptr) { free(ptr); }
