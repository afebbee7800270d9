// What runtime/core and runtime/wasi ask Spindle's host that standard WASI cannot answer
// (docs/PORTABLE.md).
#include <stdint.h>
#include <stdlib.h>

#include "spindle/host_imports.h"

// The core count: WASI has no call for it. SPINDLE_CPU_COUNT in the environment the host gives
// sets it (thread pools such as rayon size themselves from it); otherwise 1, libc's answer.
int spindle_host_cpu_count(void)
{
    const char *given = getenv("SPINDLE_CPU_COUNT");
    long n = given ? strtol(given, NULL, 10) : 1;
    return n > 0 && n <= 4096 ? (int)n : 1;
}

// Linux's fstatfs f_type for the host's stdio: a WASI host cannot say, so fstatfs gives the tree's.
int32_t spindle_host_stdio_fs_type(int32_t fd)
{
    (void)fd;
    return 0;
}

// Linux's /proc/self/fd text for the host's stdio: a WASI host cannot say.
int32_t spindle_host_stdio_name(int32_t fd, void *text, int32_t size)
{
    (void)fd;
    (void)text;
    (void)size;
    return -1;
}
