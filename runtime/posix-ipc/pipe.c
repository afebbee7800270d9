/* pipe and pipe2 (wasi-libc has neither): pipes between the program's
 * threads, in the filesystem's fd table (runtime/fs/special/pipe.c). */
#include <fcntl.h>

#include "ipc_errno.h"

int pipe2(int fds[2], int flags);

int pipe2(int fds[2], int flags)
{
    /* O_CLOEXEC is 0 in wasi-libc (there is no exec); O_DIRECT is not supported */
    if (flags & ~(O_NONBLOCK | O_CLOEXEC)) {
        errno = EINVAL;
        return -1;
    }
    if (ipc_ready() < 0)
        return -1;
    return ipc_result(spindle_fs_pipe(fds, (flags & O_NONBLOCK) ? SPINDLE_O_NONBLOCK : 0));
}

int pipe(int fds[2]) { return pipe2(fds, 0); }
