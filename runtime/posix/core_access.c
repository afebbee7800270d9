/* How the POSIX layer calls Spindle's filesystem core: start-up, errors, paths, stat. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "posix_internal.h"

int __wasilibc_find_abspath(const char *abspath, const char **abs_prefix, const char **relative);
int __wasilibc_find_relpath_alloc(const char *path, const char **abs_prefix, char **relative_buf,
                                  size_t *relative_buf_len, int can_realloc);

bool posix_core_ready(void)
{
    if (wasi_fs_ready == NULL || spindle_fs_fstatat == NULL)
        return false;
    int32_t err = wasi_fs_ready(); /* a WASI errno, which is libc's errno numbering */
    if (err != 0)
        errno = err;
    return err == 0;
}

bool posix_host_stdio(int fd)
{
    return fd >= 0 && fd < POSIX_FIRST_CORE_FD &&
           (spindle_fs_fd_in_table == NULL || !spindle_fs_fd_in_table(fd));
}

long posix_core_result(int64_t rc)
{
    if (rc >= 0)
        return (long)rc;
    errno = wasi_errno_from_linux((int)-rc);
    return -1;
}

int posix_resolve(int dirfd, const char *path, char scratch[POSIX_RESOLVE_SCRATCH], const char **relative,
                  char **to_free)
{
    *to_free = NULL;
    if (path[0] == '\0') { /* before anything about dirfd, as Linux checks */
        errno = ENOENT;
        return -1;
    }
    if (dirfd != AT_FDCWD && path[0] != '/') {
        *relative = path;
        return dirfd;
    }
    const char *prefix;
    if (path[0] == '/') /* the part below the preopen is the path's own tail: nothing to copy */
        return __wasilibc_find_abspath(path, &prefix, relative);
    char *buf = scratch; /* joined with the cwd: on the caller's stack where it fits */
    size_t len = POSIX_RESOLVE_SCRATCH;
    int fd = __wasilibc_find_relpath_alloc(path, &prefix, &buf, &len, 0);
    if (fd >= 0 || errno != ERANGE) {
        *relative = buf;
        return fd;
    }
    buf = NULL;
    len = 0;
    fd = __wasilibc_find_relpath_alloc(path, &prefix, &buf, &len, 1);
    if (fd < 0) {
        free(buf);
        return -1;
    }
    *relative = buf;
    *to_free = buf;
    return fd;
}

int posix_core_at_flags(int flags) { return (flags & AT_SYMLINK_NOFOLLOW) ? SPINDLE_AT_SYMLINK_NOFOLLOW : 0; }

void posix_stat_from_core(const struct spindle_stat *in, struct stat *out)
{
    memset(out, 0, sizeof *out);
    out->st_dev = in->dev;
    out->st_ino = in->ino;
    out->st_nlink = in->nlink;
    /* type and permission bits have the same numbers in wasi-libc as on Linux */
    out->st_mode = in->mode;
    out->st_uid = in->uid;
    out->st_gid = in->gid;
    out->st_size = in->size;
    out->st_blksize = 4096;
    out->st_blocks = in->blocks;
    out->st_atim.tv_sec = in->atim.sec;
    out->st_atim.tv_nsec = in->atim.nsec;
    out->st_mtim.tv_sec = in->mtim.sec;
    out->st_mtim.tv_nsec = in->mtim.nsec;
    out->st_ctim.tv_sec = in->ctim.sec;
    out->st_ctim.tv_nsec = in->ctim.nsec;
}
