/* wasi-libc's fcntl.h plus the record-lock commands Spindle implements
 * (spindle/posix_ipc.h). */
#include_next <fcntl.h>
#include "../spindle/posix_ipc.h"

/* Code built with this header calls fcntl under another symbol, defined next to the record
 * locks (runtime/posix-ipc/locks.c): the locks are linked into programs whose own code calls
 * fcntl, and left out of the others (the threaded hello world's stdio calls fcntl too, through
 * libc, which reaches the locks only by a weak reference). */
int fcntl(int, int, ...) __asm__("__spindle_fcntl_with_locks");
