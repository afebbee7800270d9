/* Advisory locks for programs: fcntl's record-lock commands (classic and
 * open-file-description), flock and lockf, over runtime/fs/special/file_lock.c.
 * The POSIX layer's fcntl (runtime/posix/dup.c, wrapped at link time) hands
 * the lock commands to spindle_fcntl_lock. */
#define _GNU_SOURCE /* F_LOCK and friends of lockf */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/file.h>
#include <unistd.h>

#include "../include/spindle/posix_ipc.h"
#include "ipc_errno.h"

int spindle_fcntl_lock(int fd, int cmd, struct flock *lock);
int __spindle_fcntl_with_locks(int fd, int cmd, ...);

static int record_lock(int fd, int cmd, struct flock *lock)
{
    if (ipc_ready() < 0)
        return -1;
    bool ofd = cmd == F_OFD_GETLK || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW;
    enum spindle_lock_owner owner = ofd ? SPINDLE_LOCK_DESCRIPTION : SPINDLE_LOCK_PROCESS;
    if (ofd && lock->l_pid != 0) { /* Linux: OFD requests must carry l_pid 0 */
        errno = EINVAL;
        return -1;
    }
    struct spindle_flock request = {lock->l_type, lock->l_whence, lock->l_start, lock->l_len, 0};
    if (cmd == F_GETLK || cmd == F_OFD_GETLK) {
        int rc = spindle_fs_getlk(fd, owner, &request);
        if (rc == 0) {
            lock->l_type = request.type;
            if (request.type != SPINDLE_F_UNLCK) {
                lock->l_whence = SEEK_SET;
                lock->l_start = request.start;
                lock->l_len = request.len;
                lock->l_pid = request.pid;
            }
        }
        return ipc_result(rc);
    }
    bool wait = cmd == F_SETLKW || cmd == F_OFD_SETLKW;
    return ipc_result(spindle_fs_setlk(fd, owner, &request, wait));
}

/* F_GETLK, F_SETLK, F_SETLKW and their F_OFD_ forms. */
int spindle_fcntl_lock(int fd, int cmd, struct flock *lock) { return record_lock(fd, cmd, lock); }

/* fcntl as code built with runtime/include/ipc/fcntl.h calls it: linking it links this file,
 * and so the definition above, which the POSIX layer's fcntl looks for (runtime/posix/dup.c has
 * a weak one without the locks, for modules linked without posix-ipc). */
int __spindle_fcntl_with_locks(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long); /* an int or a pointer: both 32 bits in wasm32 */
    va_end(ap);
    return fcntl(fd, cmd, arg);
}

int flock(int fd, int operation)
{
    int kind = operation & ~LOCK_NB;
    short type = kind == LOCK_SH   ? SPINDLE_F_RDLCK
                 : kind == LOCK_EX ? SPINDLE_F_WRLCK
                 : kind == LOCK_UN ? SPINDLE_F_UNLCK
                                   : -1;
    if (type < 0) {
        errno = EINVAL;
        return -1;
    }
    if (ipc_ready() < 0)
        return -1;
    struct spindle_flock whole = {type, SPINDLE_SEEK_SET, 0, 0, 0};
    return ipc_result(spindle_fs_setlk(fd, SPINDLE_LOCK_FLOCK, &whole, !(operation & LOCK_NB)));
}

/* lockf: classic record locks on [position, position+len) (len 0: to the end),
 * as Linux implements it over fcntl. */
int lockf(int fd, int cmd, off_t len)
{
    if (ipc_ready() < 0)
        return -1;
    struct spindle_flock lock = {SPINDLE_F_WRLCK, SPINDLE_SEEK_CUR, 0, len, 0};
    switch (cmd) {
    case F_LOCK:
    case F_TLOCK:
        return ipc_result(spindle_fs_setlk(fd, SPINDLE_LOCK_PROCESS, &lock, cmd == F_LOCK));
    case F_ULOCK:
        lock.type = SPINDLE_F_UNLCK;
        return ipc_result(spindle_fs_setlk(fd, SPINDLE_LOCK_PROCESS, &lock, 0));
    case F_TEST: {
        lock.type = SPINDLE_F_RDLCK; /* what Linux's lockf asks: would anyone's lock get in the way? */
        int rc = spindle_fs_getlk(fd, SPINDLE_LOCK_PROCESS, &lock);
        if (rc == 0 && lock.type != SPINDLE_F_UNLCK)
            rc = -SPINDLE_EACCES;
        return ipc_result(rc);
    }
    default:
        errno = EINVAL;
        return -1;
    }
}
