/* wasi-libc's unistd.h plus pipe, pipe2 and lockf, which Spindle implements
 * (spindle/posix_ipc.h). */
#include_next <unistd.h>
#include "../spindle/posix_ipc.h"
