// Rust programs linked by `spindle cargo` get the real core count in RAYON_NUM_THREADS before
// main. On wasm32-wasip1-threads std's available_parallelism() is Unsupported (std never asks
// libc), so rayon would run everything on one thread; rayon reads this variable first. A value
// the user set is kept. sysconf is the runtime's (runtime/core/sysconf.c, --wrap=sysconf).
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void spindle_rayon_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char text[24];
    snprintf(text, sizeof text, "%ld", cores > 0 ? cores : 1);
    setenv("RAYON_NUM_THREADS", text, 0);
}
