/* wasi-libc's unistd.h plus pipe and pipe2, which Spindle implements
 * (spindle/posix_ipc.h). */
#include_next <unistd.h>
#include "../spindle/posix_ipc.h"
