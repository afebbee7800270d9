/* mknod/mknodat, which WASI's libc leaves out: a regular file is made as open(O_CREAT|O_EXCL)
 * would make it; a device, block or character, is EPERM as for an unprivileged Linux process
 * (with --as-root too: Spindle has no device nodes to make); FIFOs and sockets are EPERM as
 * well (no named ones here), a directory EPERM as on Linux, an unknown type EINVAL. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#define CREATE_FLAGS (O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC)

/* 0 for a regular file, else -1 with errno set */
static int regular_only(mode_t mode)
{
    mode_t type = mode & S_IFMT;
    if (type == 0 || type == S_IFREG)
        return 0;
    bool known = type == S_IFCHR || type == S_IFBLK || type == S_IFIFO || type == S_IFSOCK || type == S_IFDIR;
    errno = known ? EPERM : EINVAL;
    return -1;
}

static int created(int fd) { return fd < 0 ? -1 : close(fd); }

int mknodat(int dirfd, const char *path, mode_t mode, dev_t dev)
{
    (void)dev;
    return regular_only(mode) < 0 ? -1 : created(openat(dirfd, path, CREATE_FLAGS, mode & 07777));
}

/* open, not openat(AT_FDCWD): the latter drops the mode in the layer today */
int mknod(const char *path, mode_t mode, dev_t dev)
{
    (void)dev;
    return regular_only(mode) < 0 ? -1 : created(open(path, CREATE_FLAGS, mode & 07777));
}
