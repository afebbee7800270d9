/* /dev/stdin, /dev/stdout, /dev/stderr and /proc/self/fd/0-2 open Spindle
 * descriptions whose reads and writes go here (runtime/fs/proc_fd.c): on to
 * the host's stdio, like fds 0-2 themselves. */
#include <stdint.h>

#include "wasi_host.h"
#include "wasi_support.h"

/* wasm32 iovecs have the same layout as the core's (checked in wasi_fd_calls.c) */
int64_t wasi_host_stdio(int fd, const struct spindle_iovec *iov, int iovcnt, int write)
{
    uint32_t done = 0;
    int32_t err = write ? host_fd_write(fd, (int32_t)(uintptr_t)iov, iovcnt, (int32_t)(uintptr_t)&done)
                        : host_fd_read(fd, (int32_t)(uintptr_t)iov, iovcnt, (int32_t)(uintptr_t)&done);
    switch (err) {
    case WASI_ESUCCESS:
        return done;
    case WASI_EBADF:
        return -SPINDLE_EBADF;
    case WASI_EAGAIN:
        return -SPINDLE_EAGAIN;
    case WASI_EPIPE:
        return -SPINDLE_EPIPE;
    default:
        return -SPINDLE_EIO;
    }
}
