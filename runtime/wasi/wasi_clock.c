/* WASI clock_time_get: the host's clock. A wall-clock time the program reads (or sleeps past,
 * wasi_poll.c) is also handed to the filesystem, whose stamps come from a clock the host keeps
 * in memory and which can fall behind when the host's ticker is starved: a file written after
 * the program saw a time is stamped no more than a tick before it, as on Linux. */
#include <string.h>

#include "wasi_host.h"
#include "wasi_support.h"

enum { CLOCK_REALTIME_ID = 0 };

int32_t __imported_wasi_snapshot_preview1_clock_time_get(int32_t id, int64_t precision, int32_t time_ptr)
{
    if (!wasi_in_memory((uint32_t)time_ptr, 8))
        return WASI_EFAULT;
    uint64_t now; /* (a local: the time seen is the one the host gave, whatever else writes there) */
    int32_t err = host_clock_time_get(id, precision, (int32_t)(uintptr_t)&now);
    if (err != WASI_ESUCCESS)
        return err;
    memcpy(WASI_PTR(time_ptr), &now, 8);
    if (id == CLOCK_REALTIME_ID)
        spindle_fs_clock_seen((int64_t)now);
    return WASI_ESUCCESS;
}

void wasi_clock_seen_now(void)
{
    uint64_t now;
    if (host_clock_time_get(CLOCK_REALTIME_ID, 1, (int32_t)(uintptr_t)&now) == WASI_ESUCCESS)
        spindle_fs_clock_seen((int64_t)now);
}
