// A mount backend (runtime/include/spindle/mount.h) whose calls go to a directory the WASI host
// preopened: the portable module's way to the host's files (docs/PORTABLE.md). ctx is the
// struct wasi_mount of the preopen; a handle is a host_fd_per_thread.c open file (a host fd on each
// thread, for hosts with one fd table per thread). The host
// confines every path to its preopen, as WASI does.
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../wasi/wasi_abi.h"
#include "../wasi/wasi_host.h"
#include "spindle/identity.h"
#include "wasi_mount.h"

#define ADDR(p) ((int32_t)(uintptr_t)(p))

// Rights an open asks for beyond those that depend on the access mode (as wasi-libc's open).
#define RIGHTS_READ (WASI_RIGHT_FD_READ | WASI_RIGHT_FD_READDIR)
#define RIGHTS_WRITE                                                                                         \
    (WASI_RIGHT_FD_WRITE | (1ull << 0) /* datasync */ | (1ull << 8) /* allocate */ |                         \
     (1ull << 22) /* filestat_set_size */)

// WASI errno -> Linux errno, for the codes a file call can give.
static const uint8_t linux_errno[77] = {
    [1] = 7,   [2] = 13,  [6] = 11,  [8] = 9,   [10] = 16, [16] = 35, [19] = 122, [20] = 17, [21] = 14,
    [22] = 27, [25] = 84, [27] = 4,  [28] = 22, [29] = 5,  [31] = 21, [32] = 40,  [33] = 24, [34] = 31,
    [37] = 36, [41] = 23, [43] = 19, [44] = 2,  [46] = 37, [48] = 12, [51] = 28,  [52] = 38, [54] = 20,
    [55] = 39, [58] = 95, [59] = 25, [60] = 6,  [61] = 75, [63] = 1,  [64] = 32,  [68] = 34, [69] = 30,
    [70] = 29, [74] = 26, [75] = 18, [76] = 13, /* notcapable: outside what the preopen grants */
};

static int err(int32_t wasi_errno)
{
    if (wasi_errno == 0)
        return 0;
    uint8_t linux = (uint32_t)wasi_errno < sizeof linux_errno ? linux_errno[wasi_errno] : 0;
    return -(linux ? linux : SPINDLE_EIO);
}

static int dir_fd(void *ctx) { return ((struct wasi_mount *)ctx)->fd; }

// The mount's root is "" for the layer and "." for WASI.
static const char *wasi_path(const char *rel) { return *rel ? rel : "."; }

static uint32_t mode_of(uint8_t filetype)
{
    switch (filetype) {
    case WASI_FILETYPE_DIRECTORY:
        return SPINDLE_S_IFDIR | 0755;
    case WASI_FILETYPE_SYMBOLIC_LINK:
        return SPINDLE_S_IFLNK | 0777;
    case WASI_FILETYPE_CHARACTER_DEVICE:
        return SPINDLE_S_IFCHR | 0666;
    case WASI_FILETYPE_BLOCK_DEVICE:
        return SPINDLE_S_IFBLK | 0660;
    case WASI_FILETYPE_SOCKET_DGRAM:
    case WASI_FILETYPE_SOCKET_STREAM:
        return SPINDLE_S_IFSOCK | 0755;
    default:
        return SPINDLE_S_IFREG | 0644; // WASI keeps no permission bits: Linux's defaults
    }
}

static struct spindle_timespec from_ns(uint64_t ns)
{
    return (struct spindle_timespec){(int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u)};
}

static int to_stat(int32_t wasi_errno, const struct wasi_filestat *w, struct spindle_stat *st)
{
    if (wasi_errno)
        return err(wasi_errno);
    memset(st, 0, sizeof *st);
    st->ino = w->ino;
    st->mode = mode_of(w->filetype);
    st->uid = spindle_user_id(); // the program owns its mounts' files
    st->gid = spindle_group_id();
    st->nlink = w->nlink;
    st->size = (int64_t)w->size;
    st->blocks = (int64_t)((w->size + 511) / 512);
    st->atim = from_ns(w->atim);
    st->mtim = from_ns(w->mtim);
    st->ctim = from_ns(w->ctim);
    return 0;
}

// utimensat's pair -> WASI's two times and fstflags
static int32_t set_times_flags(const struct spindle_timespec t[2], int64_t ns[2])
{
    int32_t flags = 0;
    for (int i = 0; i < 2; i++) {
        ns[i] = 0;
        if (t[i].nsec == SPINDLE_UTIME_OMIT)
            continue;
        if (t[i].nsec == SPINDLE_UTIME_NOW) {
            flags |= i ? WASI_FSTFLAGS_MTIM_NOW : WASI_FSTFLAGS_ATIM_NOW;
        } else {
            flags |= i ? WASI_FSTFLAGS_MTIM : WASI_FSTFLAGS_ATIM;
            ns[i] = t[i].sec * 1000000000 + t[i].nsec;
        }
    }
    return flags;
}

static int32_t lookup(int flags)
{
    return flags & SPINDLE_AT_SYMLINK_NOFOLLOW ? 0 : WASI_LOOKUP_SYMLINK_FOLLOW;
}

static int w_fstat(void *ctx, uint64_t handle, struct spindle_stat *st);

static int w_open(void *ctx, const char *rel, int flags, uint32_t mode, uint64_t *handle,
                  struct spindle_stat *st)
{
    (void)mode; // WASI keeps no permission bits
    const char *path = wasi_path(rel);
    int32_t oflags = (flags & SPINDLE_O_CREAT ? WASI_OFLAGS_CREAT : 0) |
                     (flags & SPINDLE_O_EXCL ? WASI_OFLAGS_EXCL : 0) |
                     (flags & SPINDLE_O_TRUNC ? WASI_OFLAGS_TRUNC : 0) |
                     (flags & SPINDLE_O_DIRECTORY ? WASI_OFLAGS_DIRECTORY : 0);
    int access = flags & SPINDLE_O_ACCMODE;
    uint64_t inheriting = ((struct wasi_mount *)ctx)->rights;
    uint64_t base = inheriting & ~(RIGHTS_READ | RIGHTS_WRITE);
    if (access != SPINDLE_O_WRONLY)
        base |= inheriting & RIGHTS_READ;
    if (access != SPINDLE_O_RDONLY)
        base |= inheriting & RIGHTS_WRITE;
    int32_t lookup_flags = flags & SPINDLE_O_NOFOLLOW ? 0 : WASI_LOOKUP_SYMLINK_FOLLOW;
    uint64_t opened;
    int32_t rc =
        host_file_open(dir_fd(ctx), path, lookup_flags, oflags, (int64_t)base, (int64_t)inheriting, &opened);
    if (rc)
        return err(rc);
    int got = w_fstat(ctx, opened, st);
    if (got) {
        host_file_close(opened);
        return got;
    }
    *handle = opened;
    return 0;
}

static int w_close(void *ctx, uint64_t handle)
{
    (void)ctx;
    return err(host_file_close(handle));
}

static int64_t transfer(uint64_t handle, const void *buf, size_t len, int64_t offset, int write)
{
    struct wasi_iovec iov = {(uint32_t)(uintptr_t)buf, (uint32_t)len};
    uint32_t done = 0;
    int32_t fd, rc = host_file_fd(handle, &fd);
    if (rc == 0)
        rc = write ? host_fd_pwrite(fd, ADDR(&iov), 1, offset, ADDR(&done))
                   : host_fd_pread(fd, ADDR(&iov), 1, offset, ADDR(&done));
    return rc ? err(rc) : (int64_t)done;
}

static int64_t w_pread(void *ctx, uint64_t handle, void *buf, size_t len, int64_t offset)
{
    (void)ctx;
    return transfer(handle, buf, len, offset, 0);
}

static int64_t w_pwrite(void *ctx, uint64_t handle, const void *buf, size_t len, int64_t offset)
{
    (void)ctx;
    return transfer(handle, buf, len, offset, 1);
}

static int w_fstat(void *ctx, uint64_t handle, struct spindle_stat *st)
{
    (void)ctx;
    struct wasi_filestat w;
    int32_t fd, rc = host_file_fd(handle, &fd);
    return rc ? err(rc) : to_stat(host_fd_filestat_get(fd, ADDR(&w)), &w, st);
}

static int w_ftruncate(void *ctx, uint64_t handle, int64_t length)
{
    (void)ctx;
    int32_t fd, rc = host_file_fd(handle, &fd);
    return err(rc ? rc : host_fd_filestat_set_size(fd, length));
}

static int w_fsync(void *ctx, uint64_t handle, int datasync)
{
    (void)ctx;
    int32_t fd, rc = host_file_fd(handle, &fd);
    return err(rc ? rc : datasync ? host_fd_datasync(fd) : host_fd_sync(fd));
}

static int w_futimens(void *ctx, uint64_t handle, const struct spindle_timespec times[2])
{
    (void)ctx;
    int64_t ns[2];
    int32_t flags = set_times_flags(times, ns);
    int32_t fd, rc = host_file_fd(handle, &fd);
    return err(rc ? rc : host_fd_filestat_set_times(fd, ns[0], ns[1], flags));
}

static uint8_t dirent_type(uint8_t filetype)
{
    switch (filetype) {
    case WASI_FILETYPE_DIRECTORY:
        return SPINDLE_DT_DIR;
    case WASI_FILETYPE_REGULAR_FILE:
        return SPINDLE_DT_REG;
    case WASI_FILETYPE_SYMBOLIC_LINK:
        return SPINDLE_DT_LNK;
    case WASI_FILETYPE_CHARACTER_DEVICE:
        return SPINDLE_DT_CHR;
    default:
        return 0; // DT_UNKNOWN: the program asks stat
    }
}

// The layer's cookies are >= 3 (0 is the start, 1 and 2 its own "." and ".."); WASI's start at 0.
#define COOKIE_SHIFT 3

static int w_readdir(void *ctx, uint64_t handle, uint64_t cookie, struct spindle_dirent *out, int max)
{
    (void)ctx;
    _Alignas(8) uint8_t buf[4096];
    uint64_t at_cookie = cookie ? cookie - COOKIE_SHIFT : 0;
    int n = 0;
    int32_t fd, found = host_file_fd(handle, &fd);
    if (found)
        return err(found);
    for (;;) {
        uint32_t used = 0;
        int32_t rc = host_fd_readdir(fd, ADDR(buf), sizeof buf, (int64_t)at_cookie, ADDR(&used));
        if (rc)
            return n ? n : err(rc);
        size_t at = 0;
        while (n < max && at + sizeof(struct wasi_dirent) <= used) {
            struct wasi_dirent e;
            memcpy(&e, buf + at, sizeof e);
            const char *name = (const char *)buf + at + sizeof e;
            if (e.namlen > SPINDLE_FS_NAME_MAX || at + sizeof e + e.namlen > used)
                break; // cut off at the end of the buffer: read again from its cookie
            at += sizeof e + e.namlen;
            at_cookie = e.next;
            bool dot =
                (e.namlen == 1 && name[0] == '.') || (e.namlen == 2 && name[0] == '.' && name[1] == '.');
            if (dot)
                continue;
            out[n] = (struct spindle_dirent){.next_cookie = e.next + COOKIE_SHIFT,
                                             .ino = e.ino,
                                             .type = dirent_type(e.type),
                                             .name_len = (uint16_t)e.namlen};
            memcpy(out[n].name, name, e.namlen);
            out[n].name[e.namlen] = '\0';
            n++;
        }
        // done when something was found, or the host gave less than a full buffer (the end)
        if (n > 0 || used < sizeof buf)
            return n;
    }
}

static int w_stat(void *ctx, const char *rel, int flags, struct spindle_stat *st)
{
    const char *path = wasi_path(rel);
    struct wasi_filestat w;
    return to_stat(
        host_path_filestat_get(dir_fd(ctx), lookup(flags), ADDR(path), (int32_t)strlen(path), ADDR(&w)), &w,
        st);
}

static int w_mkdir(void *ctx, const char *rel, uint32_t mode)
{
    (void)mode;
    return err(host_path_create_directory(dir_fd(ctx), ADDR(rel), (int32_t)strlen(rel)));
}

static int w_unlink(void *ctx, const char *rel, int flags)
{
    int32_t len = (int32_t)strlen(rel);
    return err(flags & SPINDLE_AT_REMOVEDIR ? host_path_remove_directory(dir_fd(ctx), ADDR(rel), len)
                                            : host_path_unlink_file(dir_fd(ctx), ADDR(rel), len));
}

static int w_rename(void *ctx, const char *from, const char *to)
{
    int fd = dir_fd(ctx);
    return err(host_path_rename(fd, ADDR(from), (int32_t)strlen(from), fd, ADDR(to), (int32_t)strlen(to)));
}

static int w_link(void *ctx, const char *from, const char *to, int flags)
{
    int fd = dir_fd(ctx);
    int32_t follow = flags & SPINDLE_AT_SYMLINK_FOLLOW ? WASI_LOOKUP_SYMLINK_FOLLOW : 0;
    return err(
        host_path_link(fd, follow, ADDR(from), (int32_t)strlen(from), fd, ADDR(to), (int32_t)strlen(to)));
}

static int w_symlink(void *ctx, const char *target, const char *rel)
{
    return err(host_path_symlink(ADDR(target), (int32_t)strlen(target), dir_fd(ctx), ADDR(rel),
                                 (int32_t)strlen(rel)));
}

static int64_t w_readlink(void *ctx, const char *rel, char *buf, size_t size)
{
    uint32_t used = 0;
    int32_t rc = host_path_readlink(dir_fd(ctx), ADDR(rel), (int32_t)strlen(rel), ADDR(buf), (int32_t)size,
                                    ADDR(&used));
    return rc ? err(rc) : (int64_t)used;
}

static int w_utimens(void *ctx, const char *rel, const struct spindle_timespec times[2], int flags)
{
    const char *path = wasi_path(rel);
    int64_t ns[2];
    int32_t fst = set_times_flags(times, ns);
    return err(host_path_filestat_set_times(dir_fd(ctx), lookup(flags), ADDR(path), (int32_t)strlen(path),
                                            ns[0], ns[1], fst));
}

// chmod and fchmod are NULL: WASI keeps no modes, so they fail with EPERM (mount.h).
const struct spindle_mount_backend wasi_mount_backend = {
    w_open,  w_close,  w_pread,  w_pwrite, w_fstat,   w_ftruncate, w_fsync,   w_futimens, w_readdir, w_stat,
    w_mkdir, w_unlink, w_rename, w_link,   w_symlink, w_readlink,  w_utimens, NULL,       NULL,
};
