/* dup, dup2, dup3 and fcntl(F_DUPFD, F_DUPFD_CLOEXEC, F_GETPIPE_SZ, F_SETPIPE_SZ, F_GETOWN,
 * F_SETOWN) on Spindle's fd table (wasi-libc has none of them). fds 0-2 are the host's stdio
 * until dup2 puts one of the table's descriptions there; a duplicate of the host's fd is a
 * description of it (spindle_fs_dup_stdio), so "save stderr, dup2 a pipe onto 2, restore it"
 * works as on Linux. Other --fs modes: ENOSYS. fcntl is linked with --wrap=fcntl; the
 * record-lock commands go to runtime/posix-ipc, the others to libc. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdarg.h>
#include <unistd.h>

#include "../include/spindle/posix_ipc.h"
#include "posix_internal.h"

int __real_fcntl(int fd, int cmd, ...);
/* The record-lock commands, from runtime/posix-ipc (linked with --fs=spindle only). */
__attribute__((weak)) int spindle_fcntl_lock(int fd, int cmd, void *lock);

static bool is_lock_command(int cmd)
{
    return cmd == F_GETLK || cmd == F_SETLK || cmd == F_SETLKW || cmd == F_OFD_GETLK || cmd == F_OFD_SETLK ||
           cmd == F_OFD_SETLKW;
}

/* new fds come from 3 up: fds 0-2 are filled only by dup2 */
static int dup_from(int fd, int min)
{
    if (!posix_core_ready()) {
        errno = ENOSYS;
        return -1;
    }
    int lowest = min < POSIX_FIRST_CORE_FD ? POSIX_FIRST_CORE_FD : min;
    return (int)posix_core_result(posix_host_stdio(fd) ? spindle_fs_dup_stdio(fd, lowest)
                                                       : spindle_fs_dupfd(fd, lowest));
}

int dup(int fd) { return dup_from(fd, 0); }

int dup3(int oldfd, int newfd, int flags)
{
    if (oldfd == newfd || (flags & ~O_CLOEXEC)) {
        errno = EINVAL;
        return -1;
    }
    if (!posix_core_ready()) {
        errno = ENOSYS;
        return -1;
    }
    /* the host's fd first gets a description of its own, which newfd then shares */
    int source = oldfd;
    if (posix_host_stdio(oldfd) && (source = dup_from(oldfd, 0)) < 0)
        return -1;
    long rc = posix_core_result(spindle_fs_dup2(source, newfd));
    if (source != oldfd)
        spindle_fs_close(source);
    return (int)rc;
}

int dup2(int oldfd, int newfd)
{
    if (oldfd != newfd)
        return dup3(oldfd, newfd, 0);
    /* Linux: dup2(fd, fd) checks fd and returns it */
    if (fcntl(oldfd, F_GETFL) < 0)
        return -1;
    return newfd;
}

/* F_GETOWN/F_SETOWN: who gets SIGIO and SIGURG for fd. No signal is ever sent, so no owner is
 * kept: F_GETOWN is 0; F_SETOWN accepts none (0), this process or its group, and any other
 * process or group is one that does not exist (ESRCH). */
static int signal_owner(int fd, int cmd, long owner)
{
    if (__real_fcntl(fd, F_GETFL) < 0)
        return -1;
    if (cmd == F_GETOWN || owner == 0 || owner == getpid() || owner == -getpid()) /* its group is its pid */
        return 0;
    errno = ESRCH;
    return -1;
}

int __wrap_fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long); /* an int or a pointer: both 32 bits in wasm32 */
    va_end(ap);
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) {
        if (arg < 0) {
            errno = EINVAL;
            return -1;
        }
        return dup_from(fd, (int)arg);
    }
    if (cmd == F_GETPIPE_SZ || cmd == F_SETPIPE_SZ) {
        if (!posix_core_ready()) { /* no core, no pipes: fd is not one */
            errno = EBADF;
            return -1;
        }
        return (int)posix_core_result(cmd == F_GETPIPE_SZ ? spindle_fs_get_pipe_size(fd)
                                                          : spindle_fs_set_pipe_size(fd, (uint32_t)arg));
    }
    if (cmd == F_GETOWN || cmd == F_SETOWN)
        return signal_owner(fd, cmd, arg);
    if (is_lock_command(cmd) && spindle_fcntl_lock)
        return spindle_fcntl_lock(fd, cmd, (void *)arg);
    /* libc answers F_GETFD/F_SETFD without looking at the fd; Linux gives EBADF for a closed one */
    if ((cmd == F_GETFD || cmd == F_SETFD) && __real_fcntl(fd, F_GETFL) < 0)
        return -1;
    return __real_fcntl(fd, cmd, arg);
}

/* fcntl as code built with runtime/include/ipc/fcntl.h calls it (the header renames the calls).
 * With --fs=spindle, runtime/posix-ipc/locks.c defines it too, and links the record locks with
 * it: that archive comes first (cli/build/cc.js), and this weak one gives way. Here it is this file's
 * fcntl, for modules linked without posix-ipc (--fs=js, --fs=none). */
__attribute__((weak, alias("__wrap_fcntl"))) int __spindle_fcntl_with_locks(int fd, int cmd, ...);
