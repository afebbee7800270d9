/* The clock that file timestamps read. In wasm it is the import spindle.fs_clock_ms
 * (host/platform/wall-clock.js): the wall clock in milliseconds as a double, the clock
 * clock_gettime(CLOCK_REALTIME) reads, without a BigInt or a write to memory. Each thread keeps
 * its last reading and asks again only when spindle.date_now_ms (the host's Date.now itself)
 * has moved, so a stamp is a reading at most about a millisecond old: coarse like Linux's
 * tick-based file times, never ahead of a later clock_gettime. The check is here, not in the
 * host, because Date.now is one of the engine's own functions: a thread's first writes call no
 * JavaScript that its new worker would first have to compile (docs/FILESYSTEM.md, "Timestamps").
 * Natively (the core's tests) and in a --host=wasi module (runtime/portable/stamp_clock.c,
 * compiled with SPINDLE_PORTABLE) it is clock_gettime itself. */
#include "fs_core.h"

#include <time.h>

#include "../../include/spindle/host_imports.h"

#if defined(__wasm__) && !defined(SPINDLE_PORTABLE)
static _Thread_local double read_at_date_ms = __builtin_nan(""); /* none yet: NaN equals nothing */
static _Thread_local double reading_ms;

int64_t stamp_clock_ns(void)
{
    double date_ms = spindle_host_date_now_ms();
    if (date_ms != read_at_date_ms) {
        read_at_date_ms = date_ms;
        reading_ms = spindle_host_fs_clock_ms();
    }
    /* Truncated: a later clock_gettime rounds a later reading, so it is never behind this. */
    return (int64_t)(reading_ms * 1e6);
}
#else
int64_t stamp_clock_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
#endif
