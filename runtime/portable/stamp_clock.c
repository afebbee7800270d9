// File timestamps from WASI's own clock: spindle.fs_clock_ms is Spindle's host's (docs/PORTABLE.md).
#define SPINDLE_STAMP_CLOCK_FROM_LIBC
#include "../fs/core/stamp_clock.c"
