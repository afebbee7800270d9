/* The clock that file timestamps read. In wasm it is the import spindle.fs_clock_ms
 * (host/platform/wall-clock.js): the wall clock in milliseconds as a double, re-read by the host
 * only when Date.now() has moved, so most calls cost neither performance.now() (the dearest
 * part of clock_gettime in a Chromium worker), a BigInt nor a write to memory. Its answer is an
 * earlier reading of the clock clock_gettime(CLOCK_REALTIME) reads, at most about a millisecond
 * old: coarse like Linux's tick-based file times, never ahead of a later clock_gettime.
 * Natively (the core's tests) and in a --host=wasi module (runtime/portable/stamp_clock.c,
 * which defines SPINDLE_STAMP_CLOCK_FROM_LIBC) it is clock_gettime itself. */
#include "fs_core.h"

#include <time.h>

#if defined(__wasm__) && !defined(SPINDLE_STAMP_CLOCK_FROM_LIBC)
__attribute__((import_module("spindle"), import_name("fs_clock_ms"))) double spindle_host_fs_clock_ms(void);

int64_t stamp_clock_ns(void)
{
    /* Truncated: a later clock_gettime rounds a later reading, so it is never behind this. */
    return (int64_t)(spindle_host_fs_clock_ms() * 1e6);
}
#else
int64_t stamp_clock_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
#endif
