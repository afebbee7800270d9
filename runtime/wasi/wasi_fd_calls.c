/* WASI preview1 fd_* calls, bound at link time in place of the host's:
 * wasi-libc calls __imported_wasi_snapshot_preview1_<name>. The host's fds
 * (stdio, below WASI_FIRST_OWN_FD) are forwarded to the real host import;
 * every other fd is Spindle's in-memory filesystem. */
#include <string.h>

#include "wasi_host.h"
#include "wasi_support.h"

#define MAX_IOVS 1024

/* Checks the iovec array and every buffer it names; returns WASI errno. */
static int32_t check_iovs(uint32_t iovs, uint32_t count)
{
    if (count > MAX_IOVS)
        return WASI_EINVAL;
    if (!wasi_in_memory(iovs, (uint64_t)count * sizeof(struct wasi_iovec)))
        return WASI_EFAULT;
    const struct wasi_iovec *v = WASI_PTR(iovs);
    for (uint32_t i = 0; i < count; i++)
        if (!wasi_in_memory(v[i].buf, v[i].len))
            return WASI_EFAULT;
    return WASI_ESUCCESS;
}

/* wasm32 iovecs have the same layout as the core's */
_Static_assert(sizeof(struct spindle_iovec) == sizeof(struct wasi_iovec), "iovec layout");

static int32_t finish_transfer(int64_t rc, uint32_t retptr)
{
    if (rc < 0)
        return wasi_result(rc);
    *(uint32_t *)WASI_PTR(retptr) = (uint32_t)rc;
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_read(int32_t fd, int32_t iovs, int32_t count, int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_read(fd, iovs, count, retptr);
    int32_t err = check_iovs((uint32_t)iovs, (uint32_t)count);
    err = wasi_then_ready(err, (uint32_t)retptr, 4);
    if (err != WASI_ESUCCESS)
        return err;
    return finish_transfer(spindle_fs_readv(fd, WASI_PTR(iovs), count), (uint32_t)retptr);
}

int32_t __imported_wasi_snapshot_preview1_fd_write(int32_t fd, int32_t iovs, int32_t count, int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_write(fd, iovs, count, retptr);
    int32_t err = check_iovs((uint32_t)iovs, (uint32_t)count);
    err = wasi_then_ready(err, (uint32_t)retptr, 4);
    if (err != WASI_ESUCCESS)
        return err;
    return finish_transfer(spindle_fs_writev(fd, WASI_PTR(iovs), count), (uint32_t)retptr);
}

int32_t __imported_wasi_snapshot_preview1_fd_pread(int32_t fd, int32_t iovs, int32_t count, int64_t offset,
                                                   int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_pread(fd, iovs, count, offset, retptr);
    int32_t err = check_iovs((uint32_t)iovs, (uint32_t)count);
    err = wasi_then_ready(err, (uint32_t)retptr, 4);
    if (err != WASI_ESUCCESS)
        return err;
    return finish_transfer(spindle_fs_preadv(fd, WASI_PTR(iovs), count, offset), (uint32_t)retptr);
}

int32_t __imported_wasi_snapshot_preview1_fd_pwrite(int32_t fd, int32_t iovs, int32_t count, int64_t offset,
                                                    int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_pwrite(fd, iovs, count, offset, retptr);
    int32_t err = check_iovs((uint32_t)iovs, (uint32_t)count);
    err = wasi_then_ready(err, (uint32_t)retptr, 4);
    if (err != WASI_ESUCCESS)
        return err;
    return finish_transfer(spindle_fs_pwritev(fd, WASI_PTR(iovs), count, offset), (uint32_t)retptr);
}

int32_t __imported_wasi_snapshot_preview1_fd_seek(int32_t fd, int64_t offset, int32_t whence, int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_seek(fd, offset, whence, retptr);
    if (!wasi_in_memory((uint32_t)retptr, 8))
        return WASI_EFAULT;
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    /* WASI and Linux number whence alike: SET 0, CUR 1, END 2 */
    int64_t pos = spindle_fs_lseek(fd, offset, whence);
    if (pos < 0)
        return wasi_result(pos);
    *(uint64_t *)WASI_PTR(retptr) = (uint64_t)pos;
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_tell(int32_t fd, int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_tell(fd, retptr);
    return __imported_wasi_snapshot_preview1_fd_seek(fd, 0, SPINDLE_SEEK_CUR, retptr);
}

int32_t __imported_wasi_snapshot_preview1_fd_close(int32_t fd)
{
    if (wasi_host_fd(fd))
        return host_fd_close(fd);
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    int rc = spindle_fs_close(fd);
    if (rc == 0)
        wasi_preopen_forget(fd);
    return wasi_result(rc);
}

int32_t __imported_wasi_snapshot_preview1_fd_sync(int32_t fd)
{
    if (wasi_host_fd(fd))
        return host_fd_sync(fd);
    int32_t err = wasi_fs_ready();
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_fsync(fd));
}

int32_t __imported_wasi_snapshot_preview1_fd_datasync(int32_t fd)
{
    if (wasi_host_fd(fd))
        return host_fd_datasync(fd);
    int32_t err = wasi_fs_ready();
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_fdatasync(fd));
}

int32_t __imported_wasi_snapshot_preview1_fd_advise(int32_t fd, int64_t offset, int64_t len, int32_t advice)
{
    if (wasi_host_fd(fd))
        return host_fd_advise(fd, offset, len, advice);
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    if (advice < 0 || advice > 5 || offset < 0 || len < 0)
        return WASI_EINVAL;
    /* advice changes nothing here, also for a mount's file (never a sync); the fd must exist,
     * and as on Linux a pipe takes no advice */
    int type = spindle_fs_ftype(fd);
    if (type >= 0 && (type & SPINDLE_S_IFMT) == SPINDLE_S_IFIFO)
        return WASI_ESPIPE;
    return wasi_result(type < 0 ? type : 0);
}

int32_t __imported_wasi_snapshot_preview1_fd_allocate(int32_t fd, int64_t offset, int64_t len)
{
    if (wasi_host_fd(fd))
        return host_fd_allocate(fd, offset, len);
    int32_t err = wasi_fs_ready();
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_fallocate(fd, offset, len));
}

static uint8_t filetype_of_mode(uint32_t mode)
{
    switch (mode & SPINDLE_S_IFMT) {
    case SPINDLE_S_IFDIR:
        return WASI_FILETYPE_DIRECTORY;
    case SPINDLE_S_IFREG:
        return WASI_FILETYPE_REGULAR_FILE;
    case SPINDLE_S_IFLNK:
        return WASI_FILETYPE_SYMBOLIC_LINK;
    case SPINDLE_S_IFCHR:
        return WASI_FILETYPE_CHARACTER_DEVICE;
    default:
        return WASI_FILETYPE_UNKNOWN; /* a pipe: WASI has no FIFO type */
    }
}

int32_t __imported_wasi_snapshot_preview1_fd_fdstat_get(int32_t fd, int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_fdstat_get(fd, retptr);
    if (!wasi_in_memory((uint32_t)retptr, sizeof(struct wasi_fdstat)))
        return WASI_EFAULT;
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    int flags = spindle_fs_getfl(fd);
    if (flags < 0)
        return wasi_result(flags);
    int type = spindle_fs_ftype(fd); /* from memory: every fopen asks (isatty) */
    if (type < 0)
        return wasi_result(type);
    struct wasi_fdstat out;
    memset(&out, 0, sizeof out);
    out.filetype = filetype_of_mode((uint32_t)type);
    if (flags & SPINDLE_O_APPEND)
        out.flags |= WASI_FDFLAGS_APPEND;
    if (flags & SPINDLE_O_NONBLOCK)
        out.flags |= WASI_FDFLAGS_NONBLOCK;
    if ((flags & SPINDLE_O_SYNC) == SPINDLE_O_SYNC)
        out.flags |= WASI_FDFLAGS_SYNC;
    else if (flags & SPINDLE_O_DSYNC)
        out.flags |= WASI_FDFLAGS_DSYNC;
    /* Every right is granted, except that read/write follow the access
     * mode: wasi-libc derives fcntl(F_GETFL)'s O_RDONLY/O_WRONLY from them. */
    out.rights_base = WASI_RIGHTS_ALL;
    int access = flags & SPINDLE_O_ACCMODE;
    if (access == SPINDLE_O_WRONLY)
        out.rights_base &= ~(WASI_RIGHT_FD_READ | WASI_RIGHT_FD_READDIR);
    if (access == SPINDLE_O_RDONLY)
        out.rights_base &= ~WASI_RIGHT_FD_WRITE;
    out.rights_inheriting = WASI_RIGHTS_ALL;
    memcpy(WASI_PTR(retptr), &out, sizeof out);
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_fdstat_set_flags(int32_t fd, int32_t flags)
{
    if (wasi_host_fd(fd))
        return host_fd_fdstat_set_flags(fd, flags);
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    int linux_flags = 0;
    if (flags & WASI_FDFLAGS_APPEND)
        linux_flags |= SPINDLE_O_APPEND;
    if (flags & WASI_FDFLAGS_NONBLOCK)
        linux_flags |= SPINDLE_O_NONBLOCK;
    return wasi_result(spindle_fs_setfl(fd, linux_flags));
}

int32_t __imported_wasi_snapshot_preview1_fd_fdstat_set_rights(int32_t fd, int64_t base, int64_t inheriting)
{
    if (wasi_host_fd(fd))
        return host_fd_fdstat_set_rights(fd, base, inheriting);
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    /* rights are not enforced: accept any reduction on a valid fd */
    int flags = spindle_fs_getfl(fd);
    return wasi_result(flags < 0 ? flags : 0);
}

void wasi_fill_filestat(const struct spindle_stat *st, void *dst)
{
    struct wasi_filestat out;
    memset(&out, 0, sizeof out);
    out.dev = st->dev;
    out.ino = st->ino;
    out.filetype = filetype_of_mode(st->mode);
    out.nlink = st->nlink;
    out.size = (uint64_t)st->size;
    out.atim = (uint64_t)(st->atim.sec * 1000000000 + st->atim.nsec);
    out.mtim = (uint64_t)(st->mtim.sec * 1000000000 + st->mtim.nsec);
    out.ctim = (uint64_t)(st->ctim.sec * 1000000000 + st->ctim.nsec);
    memcpy(dst, &out, sizeof out);
}

int32_t __imported_wasi_snapshot_preview1_fd_filestat_get(int32_t fd, int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_filestat_get(fd, retptr);
    if (!wasi_in_memory((uint32_t)retptr, sizeof(struct wasi_filestat)))
        return WASI_EFAULT;
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    struct spindle_stat st;
    int rc = spindle_fs_fstat(fd, &st);
    if (rc < 0)
        return wasi_result(rc);
    wasi_fill_filestat(&st, WASI_PTR(retptr));
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_filestat_set_size(int32_t fd, int64_t size)
{
    if (wasi_host_fd(fd))
        return host_fd_filestat_set_size(fd, size);
    int32_t err = wasi_fs_ready();
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_ftruncate(fd, size));
}

/* fstflags -> the two utimensat timespecs; WASI errno */
int32_t wasi_times_from_flags(int64_t atim, int64_t mtim, int32_t fstflags, struct spindle_timespec times[2])
{
    if ((fstflags & WASI_FSTFLAGS_ATIM) && (fstflags & WASI_FSTFLAGS_ATIM_NOW))
        return WASI_EINVAL;
    if ((fstflags & WASI_FSTFLAGS_MTIM) && (fstflags & WASI_FSTFLAGS_MTIM_NOW))
        return WASI_EINVAL;
    const int64_t values[2] = {atim, mtim};
    const int32_t set[2] = {WASI_FSTFLAGS_ATIM, WASI_FSTFLAGS_MTIM};
    const int32_t now[2] = {WASI_FSTFLAGS_ATIM_NOW, WASI_FSTFLAGS_MTIM_NOW};
    for (int i = 0; i < 2; i++) {
        if (fstflags & now[i]) {
            times[i].sec = 0;
            times[i].nsec = SPINDLE_UTIME_NOW;
        } else if (fstflags & set[i]) {
            /* WASI timestamps are unsigned nanoseconds since the epoch */
            uint64_t ns = (uint64_t)values[i];
            times[i].sec = (int64_t)(ns / 1000000000u);
            times[i].nsec = (int64_t)(ns % 1000000000u);
        } else {
            times[i].sec = 0;
            times[i].nsec = SPINDLE_UTIME_OMIT;
        }
    }
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_filestat_set_times(int32_t fd, int64_t atim, int64_t mtim,
                                                                int32_t fstflags)
{
    if (wasi_host_fd(fd))
        return host_fd_filestat_set_times(fd, atim, mtim, fstflags);
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    struct spindle_timespec times[2];
    err = wasi_times_from_flags(atim, mtim, fstflags, times);
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_futimens(fd, times));
}

static uint8_t filetype_of_dirent(uint8_t type)
{
    switch (type) {
    case SPINDLE_DT_DIR:
        return WASI_FILETYPE_DIRECTORY;
    case SPINDLE_DT_REG:
        return WASI_FILETYPE_REGULAR_FILE;
    case SPINDLE_DT_LNK:
        return WASI_FILETYPE_SYMBOLIC_LINK;
    case SPINDLE_DT_CHR:
        return WASI_FILETYPE_CHARACTER_DEVICE;
    default:
        return WASI_FILETYPE_UNKNOWN;
    }
}

/* Entries are packed as header + name; the last one may be cut off at the
 * end of the buffer, which tells wasi-libc to retry with a bigger one. */
int32_t __imported_wasi_snapshot_preview1_fd_readdir(int32_t fd, int32_t buf, int32_t buf_len, int64_t cookie,
                                                     int32_t retptr)
{
    if (wasi_host_fd(fd))
        return host_fd_readdir(fd, buf, buf_len, cookie, retptr);
    if (!wasi_in_memory((uint32_t)buf, (uint32_t)buf_len) || !wasi_in_memory((uint32_t)retptr, 4))
        return WASI_EFAULT;
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    enum { BATCH = 16 };
    struct spindle_dirent ents[BATCH];
    unsigned char *out = WASI_PTR(buf);
    uint32_t cap = (uint32_t)buf_len, used = 0;
    uint64_t next = (uint64_t)cookie;
    while (used < cap) {
        int n = spindle_fs_readdir(fd, next, ents, BATCH);
        if (n < 0)
            return wasi_result(n);
        if (n == 0)
            break;
        for (int i = 0; i < n && used < cap; i++) {
            struct wasi_dirent head = {ents[i].next_cookie, ents[i].ino, ents[i].name_len,
                                       filetype_of_dirent(ents[i].type)};
            uint32_t take = cap - used < sizeof head ? cap - used : (uint32_t)sizeof head;
            memcpy(out + used, &head, take);
            used += take;
            take = cap - used < ents[i].name_len ? cap - used : ents[i].name_len;
            memcpy(out + used, ents[i].name, take);
            used += take;
            next = ents[i].next_cookie;
        }
    }
    *(uint32_t *)WASI_PTR(retptr) = used;
    return WASI_ESUCCESS;
}

/* fd_renumber(from, to): `to` becomes what `from` was, and `from` closes. */
int32_t __imported_wasi_snapshot_preview1_fd_renumber(int32_t from, int32_t to)
{
    if (wasi_host_fd(from) && wasi_host_fd(to))
        return host_fd_renumber(from, to);
    if (wasi_host_fd(from) || wasi_host_fd(to))
        return WASI_ENOTSUP; /* stdio and Spindle's files live in different tables */
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    int rc = spindle_fs_dup2(from, to);
    if (rc < 0)
        return wasi_result(rc);
    wasi_preopen_forget(to);
    if (from != to) {
        spindle_fs_close(from);
        wasi_preopen_forget(from);
    }
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_prestat_get(int32_t fd, int32_t retptr)
{
    if (!wasi_in_memory((uint32_t)retptr, sizeof(struct wasi_prestat)))
        return WASI_EFAULT;
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    /* wasi-libc scans fds upwards from 3 until EBADF. The preopen sits at the top of the
     * table so that a program's first open gets fd 3, as on Linux; the fds below it are
     * answered as "not a directory preopen" (a tag libc skips), which keeps the scan going. */
    int preopen = wasi_preopen_fd();
    if (fd < WASI_FIRST_OWN_FD || preopen < 0 || fd > preopen)
        return WASI_EBADF;
    struct wasi_prestat out = {fd == preopen ? WASI_PREOPENTYPE_DIR : WASI_PREOPENTYPE_NOT_DIR, 1};
    memcpy(WASI_PTR(retptr), &out, sizeof out);
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_fd_prestat_dir_name(int32_t fd, int32_t path, int32_t len)
{
    if (!wasi_in_memory((uint32_t)path, (uint32_t)len))
        return WASI_EFAULT;
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    if (fd != wasi_preopen_fd())
        return WASI_EBADF;
    if (len < 1)
        return WASI_ENAMETOOLONG;
    *(char *)WASI_PTR(path) = '/';
    return WASI_ESUCCESS;
}
