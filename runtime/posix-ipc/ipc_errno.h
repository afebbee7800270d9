/* The libc-facing functions of runtime/posix-ipc report the core's negative
 * Linux errno through libc's errno (wasi-libc numbers errors as WASI does). */
#ifndef SPINDLE_POSIX_IPC_ERRNO_H
#define SPINDLE_POSIX_IPC_ERRNO_H

#include <errno.h>

#include "../wasi/wasi_support.h"

/* rc >= 0 passes through; otherwise errno is set and -1 returned. */
static inline int ipc_result(int64_t rc)
{
    if (rc >= 0)
        return (int)rc;
    errno = wasi_errno_from_linux((int)-rc);
    return -1;
}

/* The filesystem starts on the first file call; these calls may come first. */
static inline int ipc_ready(void)
{
    int32_t err = wasi_fs_ready();
    if (err == WASI_ESUCCESS)
        return 0;
    errno = err; /* wasi-libc's errno values are WASI's */
    return -1;
}

#endif
