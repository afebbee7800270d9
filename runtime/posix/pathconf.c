/* pathconf/fpathconf: glibc's answers for a tmpfs, which is what Spindle's tree is (statfs
 * says so), for every path, mounts included. wasi-libc answered without looking at the path or
 * fd (no ENOENT, no EBADF) and had a few numbers of its own (LINK_MAX 8, PIPE_BUF -1). -1 with
 * errno untouched means "no limit" or "not supported", as in glibc. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static long limit_of(int name)
{
    switch (name) {
    case _PC_LINK_MAX:
        return 127; /* glibc's for a filesystem that has no fixed limit */
    case _PC_MAX_CANON:
    case _PC_MAX_INPUT:
    case _PC_NAME_MAX:
        return 255;
    case _PC_PATH_MAX:
        return 4096;
    case _PC_PIPE_BUF:
        return 4096; /* writes up to this size to a pipe go in whole (runtime/fs/special/pipe.c) */
    case _PC_CHOWN_RESTRICTED:
    case _PC_NO_TRUNC:
    case _PC_2_SYMLINKS:
        return 1;
    case _PC_VDISABLE:
        return 0;
    case _PC_FILESIZEBITS:
        return 32;
    case _PC_REC_MIN_XFER_SIZE:
    case _PC_REC_XFER_ALIGN:
    case _PC_ALLOC_SIZE_MIN:
        return 4096; /* the block size stat reports */
    case _PC_SYNC_IO:
    case _PC_ASYNC_IO:
    case _PC_PRIO_IO:
    case _PC_SOCK_MAXBUF:
    case _PC_REC_INCR_XFER_SIZE:
    case _PC_REC_MAX_XFER_SIZE:
    case _PC_SYMLINK_MAX:
        return -1;
    default:
        errno = EINVAL;
        return -1;
    }
}

long fpathconf(int fd, int name)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -1;
    return limit_of(name);
}

long pathconf(const char *path, int name)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    return limit_of(name);
}
