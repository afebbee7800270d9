#define _GNU_SOURCE
#include "posix_backend.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int root_of(void *ctx) { return (int)(intptr_t)ctx; }
static const char *at(const char *rel) { return rel[0] ? rel : "."; }

void *posix_backend_ctx(const char *host_dir)
{
    int fd = open(host_dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    return fd < 0 ? NULL : (void *)(intptr_t)fd;
}

static void to_stat(const struct stat *s, struct spindle_stat *st)
{
    memset(st, 0, sizeof *st);
    st->ino = s->st_ino;
    st->mode = s->st_mode;
    st->nlink = s->st_nlink;
    st->size = s->st_size;
    st->blocks = s->st_blocks;
    st->atim.sec = s->st_atim.tv_sec;
    st->atim.nsec = s->st_atim.tv_nsec;
    st->mtim.sec = s->st_mtim.tv_sec;
    st->mtim.nsec = s->st_mtim.tv_nsec;
    st->ctim.sec = s->st_ctim.tv_sec;
    st->ctim.nsec = s->st_ctim.tv_nsec;
}

static int p_open(void *ctx, const char *rel, int flags, uint32_t mode, uint64_t *handle,
                  struct spindle_stat *st)
{
    int fd = openat(root_of(ctx), at(rel), flags | O_CLOEXEC, mode);
    if (fd < 0)
        return -errno;
    struct stat s;
    fstat(fd, &s);
    to_stat(&s, st);
    *handle = (uint64_t)fd;
    return 0;
}

static int p_close(void *ctx, uint64_t h)
{
    (void)ctx;
    return close((int)h) < 0 ? -errno : 0;
}

static int64_t p_pread(void *ctx, uint64_t h, void *buf, size_t len, int64_t off)
{
    (void)ctx;
    ssize_t n = pread((int)h, buf, len, off);
    return n < 0 ? -errno : n;
}

static int64_t p_pwrite(void *ctx, uint64_t h, const void *buf, size_t len, int64_t off)
{
    (void)ctx;
    ssize_t n = pwrite((int)h, buf, len, off);
    return n < 0 ? -errno : n;
}

static int p_fstat(void *ctx, uint64_t h, struct spindle_stat *st)
{
    (void)ctx;
    struct stat s;
    if (fstat((int)h, &s) < 0)
        return -errno;
    to_stat(&s, st);
    return 0;
}

static int p_ftruncate(void *ctx, uint64_t h, int64_t len)
{
    (void)ctx;
    return ftruncate((int)h, len) < 0 ? -errno : 0;
}

static int p_fsync(void *ctx, uint64_t h, int datasync)
{
    (void)ctx;
    return (datasync ? fdatasync((int)h) : fsync((int)h)) < 0 ? -errno : 0;
}

static int p_futimens(void *ctx, uint64_t h, const struct spindle_timespec t[2])
{
    (void)ctx;
    struct timespec ts[2] = {{t[0].sec, t[0].nsec}, {t[1].sec, t[1].nsec}};
    return futimens((int)h, ts) < 0 ? -errno : 0;
}

/* cookie = 3 + index in the listing (without . and ..) */
static int p_readdir(void *ctx, uint64_t h, uint64_t cookie, struct spindle_dirent *out, int max)
{
    (void)ctx;
    int fd = dup((int)h);
    if (fd < 0)
        return -errno;
    DIR *d = fdopendir(fd);
    if (d == NULL) {
        close(fd);
        return -errno;
    }
    rewinddir(d);
    uint64_t index = 0, skip = cookie < 3 ? 0 : cookie - 2;
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (index++ < skip)
            continue;
        size_t len = strlen(e->d_name);
        out[n].next_cookie = index + 2;
        out[n].ino = e->d_ino;
        out[n].type = e->d_type == DT_DIR   ? SPINDLE_DT_DIR
                      : e->d_type == DT_LNK ? SPINDLE_DT_LNK
                                            : SPINDLE_DT_REG;
        out[n].name_len = (uint16_t)len;
        memcpy(out[n].name, e->d_name, len + 1);
        n++;
    }
    closedir(d);
    return n;
}

static int p_stat(void *ctx, const char *rel, int flags, struct spindle_stat *st)
{
    struct stat s;
    if (fstatat(root_of(ctx), at(rel), &s, flags & AT_SYMLINK_NOFOLLOW) < 0)
        return -errno;
    to_stat(&s, st);
    return 0;
}

static int p_mkdir(void *ctx, const char *rel, uint32_t mode)
{
    return mkdirat(root_of(ctx), rel, mode) < 0 ? -errno : 0;
}

static int p_unlink(void *ctx, const char *rel, int flags)
{
    return unlinkat(root_of(ctx), rel, flags & AT_REMOVEDIR) < 0 ? -errno : 0;
}

static int p_rename(void *ctx, const char *from, const char *to)
{
    return renameat(root_of(ctx), from, root_of(ctx), to) < 0 ? -errno : 0;
}

static int p_link(void *ctx, const char *from, const char *to, int flags)
{
    return linkat(root_of(ctx), from, root_of(ctx), to, flags & AT_SYMLINK_FOLLOW) < 0 ? -errno : 0;
}

static int p_symlink(void *ctx, const char *target, const char *rel)
{
    return symlinkat(target, root_of(ctx), rel) < 0 ? -errno : 0;
}

static int64_t p_readlink(void *ctx, const char *rel, char *buf, size_t size)
{
    ssize_t n = readlinkat(root_of(ctx), rel, buf, size);
    return n < 0 ? -errno : n;
}

static int p_utimens(void *ctx, const char *rel, const struct spindle_timespec t[2], int flags)
{
    struct timespec ts[2] = {{t[0].sec, t[0].nsec}, {t[1].sec, t[1].nsec}};
    return utimensat(root_of(ctx), at(rel), ts, flags & AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

/* without setuid, setgid and sticky, as the Node backend */
static int p_chmod(void *ctx, const char *rel, uint32_t mode, int flags)
{
    return fchmodat(root_of(ctx), at(rel), mode & 0777, flags & AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int p_fchmod(void *ctx, uint64_t h, uint32_t mode)
{
    (void)ctx;
    return fchmod((int)h, mode & 0777) < 0 ? -errno : 0;
}

const struct spindle_mount_backend posix_backend = {
    p_open,  p_close,  p_pread,  p_pwrite, p_fstat,   p_ftruncate, p_fsync,   p_futimens, p_readdir, p_stat,
    p_mkdir, p_unlink, p_rename, p_link,   p_symlink, p_readlink,  p_utimens, p_chmod,    p_fchmod,
};
