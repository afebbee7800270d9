/* The stat family, chmod and chown with permission bits and owners. WASI's filestat has no
 * mode or owner, so with Spindle's filesystem these ask the core directly; with another --fs
 * mode they are libc's (type bits only; chmod and chown: ENOSYS). AT_EMPTY_PATH works in
 * every mode; statx is built on them. Linked with --wrap=stat,lstat,fstat,fstatat,chmod,fchmod,fchmodat. */
#define _GNU_SOURCE /* statx */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_internal.h"

int __real_stat(const char *restrict path, struct stat *restrict st);
int __real_lstat(const char *restrict path, struct stat *restrict st);
int __real_fstat(int fd, struct stat *st);
int __real_fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags);

int __wrap_fstat(int fd, struct stat *st)
{
    if (posix_host_stdio(fd)) {
        /* the host's answer has WASI's types, which have no FIFO: a pipe comes as "unknown" */
        int rc = __real_fstat(fd, st);
        if (rc == 0 && (st->st_mode & S_IFMT) == 0)
            st->st_mode |= S_IFIFO;
        return rc;
    }
    if (!posix_core_ready())
        return __real_fstat(fd, st);
    struct spindle_stat core;
    long rc = posix_core_result(spindle_fs_fstat(fd, &core));
    if (rc == 0)
        posix_stat_from_core(&core, st);
    return (int)rc;
}

/* fstatat and friends; `flags` in libc's numbering */
static int stat_at(int dirfd, const char *path, struct stat *st, int flags)
{
    if ((flags & AT_EMPTY_PATH) && path[0] == '\0')
        return dirfd == AT_FDCWD ? stat_at(AT_FDCWD, ".", st, 0) : __wrap_fstat(dirfd, st);
    /* AT_NO_AUTOMOUNT: there are no automount points to leave untriggered */
    if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT)) {
        errno = EINVAL;
        return -1;
    }
    flags &= ~(AT_EMPTY_PATH | AT_NO_AUTOMOUNT);
    if (path[0] == '\0') {
        errno = ENOENT;
        return -1;
    }
    if (!posix_core_ready())
        return __real_fstatat(dirfd, path, st, flags);
    const char *relative;
    char *to_free, scratch[POSIX_RESOLVE_SCRATCH];
    int start = posix_resolve(dirfd, path, scratch, &relative, &to_free);
    if (start < 0)
        return -1;
    struct spindle_stat core;
    int core_flags = posix_core_at_flags(flags);
    long rc = posix_core_result(spindle_fs_fstatat(start, relative, &core, core_flags));
    free(to_free);
    if (rc == 0)
        posix_stat_from_core(&core, st);
    return (int)rc;
}

int __wrap_fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags)
{
    return stat_at(dirfd, path, st, flags);
}

int __wrap_stat(const char *restrict path, struct stat *restrict st)
{
    return stat_at(AT_FDCWD, path, st, 0);
}

int __wrap_lstat(const char *restrict path, struct stat *restrict st)
{
    return stat_at(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

static struct statx_timestamp statx_time(struct timespec ts)
{
    struct statx_timestamp out = {ts.tv_sec, (uint32_t)ts.tv_nsec, 0};
    return out;
}

/* statx from the stat family: every basic field is known; no birth time. */
int statx(int dirfd, const char *restrict path, int flags, unsigned mask, struct statx *restrict out)
{
    (void)mask; /* what is asked for does not change what is known */
    struct stat st;
    if (stat_at(dirfd, path, &st, flags & ~AT_STATX_SYNC_TYPE) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->stx_mask = STATX_BASIC_STATS;
    out->stx_blksize = (uint32_t)st.st_blksize;
    out->stx_nlink = (uint32_t)st.st_nlink;
    out->stx_uid = st.st_uid;
    out->stx_gid = st.st_gid;
    out->stx_mode = (uint16_t)st.st_mode;
    out->stx_ino = st.st_ino;
    out->stx_size = (uint64_t)st.st_size;
    out->stx_blocks = (uint64_t)st.st_blocks;
    out->stx_atime = statx_time(st.st_atim);
    out->stx_mtime = statx_time(st.st_mtim);
    out->stx_ctime = statx_time(st.st_ctim);
    out->stx_dev_major = (uint32_t)(st.st_dev >> 8); /* Spindle's dev numbers are small */
    out->stx_dev_minor = (uint32_t)(st.st_dev & 0xff);
    return 0;
}

/* chmod/chown by path: fchmodat/fchownat's flags in libc's numbering */
enum attr_kind { ATTR_MODE, ATTR_OWNER };

static int change_at(int dirfd, const char *path, int flags, enum attr_kind kind, uint32_t a, uint32_t b)
{
    if ((flags & AT_EMPTY_PATH) && path[0] == '\0') {
        if (dirfd == AT_FDCWD)
            path = ".";
        else
            return kind == ATTR_MODE ? fchmod(dirfd, (mode_t)a) : fchown(dirfd, a, b);
    }
    if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
        errno = EINVAL;
        return -1;
    }
    if (kind == ATTR_MODE && (flags & AT_SYMLINK_NOFOLLOW)) {
        /* Linux (glibc's lchmod): a symlink's mode cannot change; anything else changes as usual */
        struct stat st;
        if (stat_at(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
            return -1;
        if (S_ISLNK(st.st_mode)) {
            errno = EOPNOTSUPP;
            return -1;
        }
    }
    if (!posix_core_ready()) {
        errno = ENOSYS;
        return -1;
    }
    const char *relative;
    char *to_free, scratch[POSIX_RESOLVE_SCRATCH];
    int start = posix_resolve(dirfd, path, scratch, &relative, &to_free);
    if (start < 0)
        return -1;
    int core_flags = posix_core_at_flags(flags);
    long rc = posix_core_result(kind == ATTR_MODE ? spindle_fs_fchmodat(start, relative, a, core_flags)
                                                  : spindle_fs_fchownat(start, relative, a, b, core_flags));
    free(to_free);
    return (int)rc;
}

static int change_fd(int fd, enum attr_kind kind, uint32_t a, uint32_t b)
{
    if (posix_host_stdio(fd) || !posix_core_ready()) {
        /* the host's stdio: the host keeps no modes or owners */
        errno = posix_host_stdio(fd) ? EPERM : posix_core_ready() ? EBADF : ENOSYS;
        return -1;
    }
    return (int)posix_core_result(kind == ATTR_MODE ? spindle_fs_fchmod(fd, a) : spindle_fs_fchown(fd, a, b));
}

int __wrap_fchmodat(int dirfd, const char *path, mode_t mode, int flags)
{
    return change_at(dirfd, path, flags, ATTR_MODE, mode, 0);
}
int __wrap_chmod(const char *path, mode_t mode) { return change_at(AT_FDCWD, path, 0, ATTR_MODE, mode, 0); }
int __wrap_fchmod(int fd, mode_t mode) { return change_fd(fd, ATTR_MODE, mode, 0); }
int lchmod(const char *path, mode_t mode)
{
    return change_at(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, ATTR_MODE, mode, 0);
}

int fchownat(int dirfd, const char *path, uid_t uid, gid_t gid, int flags)
{
    return change_at(dirfd, path, flags, ATTR_OWNER, uid, gid);
}
int chown(const char *path, uid_t uid, gid_t gid)
{
    return change_at(AT_FDCWD, path, 0, ATTR_OWNER, uid, gid);
}
int lchown(const char *path, uid_t uid, gid_t gid)
{
    return change_at(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, ATTR_OWNER, uid, gid);
}
int fchown(int fd, uid_t uid, gid_t gid) { return change_fd(fd, ATTR_OWNER, uid, gid); }
