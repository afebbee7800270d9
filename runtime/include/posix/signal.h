/* Spindle's POSIX layer (docs/POSIX.md): Linux programs include <signal.h> without asking for
 * anything, so the layer turns on wasi-libc's emulated signals (docs/PORTING.md, "The
 * wasi-emulated libraries") and spindle cc links their library. */
#ifndef _WASI_EMULATED_SIGNAL
#define _WASI_EMULATED_SIGNAL
#endif
#include_next <signal.h>
