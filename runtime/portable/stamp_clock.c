// File timestamps from WASI's own clock (docs/PORTABLE.md): the file system's stamp_clock.c, whose
// SPINDLE_PORTABLE branch (this folder's flag, cli/build/runtime-lib.js) reads clock_gettime, not
// Spindle's host's spindle.fs_clock_ms.
#include "../fs/core/stamp_clock.c"
