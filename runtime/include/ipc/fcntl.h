/* wasi-libc's fcntl.h plus the record-lock commands Spindle implements
 * (spindle/posix_ipc.h). */
#include_next <fcntl.h>
#include "../spindle/posix_ipc.h"
