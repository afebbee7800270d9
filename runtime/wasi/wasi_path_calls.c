/* WASI preview1 path_* calls on Spindle's filesystem. wasi-libc keeps the
 * working directory itself and passes paths relative to a preopened
 * directory fd (here "/" as fd 3). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wasi_support.h"

/* runtime/posix: the mode of the open() or mkdir() in progress, less the umask */
uint32_t spindle_posix_creation_mode(uint32_t fallback);

int32_t __imported_wasi_snapshot_preview1_path_open(int32_t dirfd, int32_t lookupflags, int32_t path,
                                                    int32_t path_len, int32_t oflags, int64_t rights_base,
                                                    int64_t rights_inheriting, int32_t fdflags,
                                                    int32_t retptr)
{
    (void)rights_inheriting;
    struct wasi_path p;
    int32_t err = wasi_path_get(&p, (uint32_t)path, (uint32_t)path_len);
    err = wasi_then_ready(err, (uint32_t)retptr, 4);
    if (err != WASI_ESUCCESS)
        return err;
    /* wasi-libc turns O_RDONLY/O_WRONLY/O_RDWR into the read/write rights */
    bool readable = (uint64_t)rights_base & WASI_RIGHT_FD_READ;
    bool writable = (uint64_t)rights_base & WASI_RIGHT_FD_WRITE;
    int flags = writable ? (readable ? SPINDLE_O_RDWR : SPINDLE_O_WRONLY) : SPINDLE_O_RDONLY;
    if (oflags & WASI_OFLAGS_CREAT)
        flags |= SPINDLE_O_CREAT;
    if (oflags & WASI_OFLAGS_DIRECTORY)
        flags |= SPINDLE_O_DIRECTORY;
    if (oflags & WASI_OFLAGS_EXCL)
        flags |= SPINDLE_O_EXCL;
    if (oflags & WASI_OFLAGS_TRUNC)
        flags |= SPINDLE_O_TRUNC;
    if (fdflags & WASI_FDFLAGS_APPEND)
        flags |= SPINDLE_O_APPEND;
    if (fdflags & WASI_FDFLAGS_NONBLOCK)
        flags |= SPINDLE_O_NONBLOCK;
    if (fdflags & (WASI_FDFLAGS_SYNC | WASI_FDFLAGS_RSYNC))
        flags |= SPINDLE_O_SYNC;
    else if (fdflags & WASI_FDFLAGS_DSYNC)
        flags |= SPINDLE_O_DSYNC;
    if (!(lookupflags & WASI_LOOKUP_SYMLINK_FOLLOW))
        flags |= SPINDLE_O_NOFOLLOW;
    int fd = spindle_fs_openat(dirfd, p.text, flags, spindle_posix_creation_mode(0666));
    if (fd < 0)
        return wasi_result(fd);
    *(uint32_t *)WASI_PTR(retptr) = (uint32_t)fd;
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_path_create_directory(int32_t dirfd, int32_t path, int32_t path_len)
{
    struct wasi_path p;
    int32_t err = wasi_path_then_ready(&p, (uint32_t)path, (uint32_t)path_len);
    return err != WASI_ESUCCESS
               ? err
               : wasi_result(spindle_fs_mkdirat(dirfd, p.text, spindle_posix_creation_mode(0777)));
}

int32_t __imported_wasi_snapshot_preview1_path_remove_directory(int32_t dirfd, int32_t path, int32_t path_len)
{
    struct wasi_path p;
    int32_t err = wasi_path_then_ready(&p, (uint32_t)path, (uint32_t)path_len);
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_unlinkat(dirfd, p.text, SPINDLE_AT_REMOVEDIR));
}

int32_t __imported_wasi_snapshot_preview1_path_unlink_file(int32_t dirfd, int32_t path, int32_t path_len)
{
    struct wasi_path p;
    int32_t err = wasi_path_then_ready(&p, (uint32_t)path, (uint32_t)path_len);
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_unlinkat(dirfd, p.text, 0));
}

int32_t __imported_wasi_snapshot_preview1_path_filestat_get(int32_t dirfd, int32_t lookupflags, int32_t path,
                                                            int32_t path_len, int32_t retptr)
{
    struct wasi_path p;
    int32_t err = wasi_path_get(&p, (uint32_t)path, (uint32_t)path_len);
    err = wasi_then_ready(err, (uint32_t)retptr, 64);
    if (err != WASI_ESUCCESS)
        return err;
    struct spindle_stat st;
    int flags = (lookupflags & WASI_LOOKUP_SYMLINK_FOLLOW) ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW;
    int rc = spindle_fs_fstatat(dirfd, p.text, &st, flags);
    if (rc < 0)
        return wasi_result(rc);
    wasi_fill_filestat(&st, WASI_PTR(retptr));
    return WASI_ESUCCESS;
}

int32_t __imported_wasi_snapshot_preview1_path_filestat_set_times(int32_t dirfd, int32_t lookupflags,
                                                                  int32_t path, int32_t path_len,
                                                                  int64_t atim, int64_t mtim,
                                                                  int32_t fstflags)
{
    struct wasi_path p;
    int32_t err = wasi_path_then_ready(&p, (uint32_t)path, (uint32_t)path_len);
    struct spindle_timespec times[2];
    if (err == WASI_ESUCCESS)
        err = wasi_times_from_flags(atim, mtim, fstflags, times);
    if (err != WASI_ESUCCESS)
        return err;
    int flags = (lookupflags & WASI_LOOKUP_SYMLINK_FOLLOW) ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW;
    return wasi_result(spindle_fs_utimensat(dirfd, p.text, times, flags));
}

int32_t __imported_wasi_snapshot_preview1_path_link(int32_t old_dirfd, int32_t old_lookupflags,
                                                    int32_t old_path, int32_t old_len, int32_t new_dirfd,
                                                    int32_t new_path, int32_t new_len)
{
    struct wasi_path from, to;
    int32_t err = wasi_path_get(&from, (uint32_t)old_path, (uint32_t)old_len);
    if (err == WASI_ESUCCESS)
        err = wasi_path_then_ready(&to, (uint32_t)new_path, (uint32_t)new_len);
    if (err != WASI_ESUCCESS)
        return err;
    int flags = (old_lookupflags & WASI_LOOKUP_SYMLINK_FOLLOW) ? SPINDLE_AT_SYMLINK_FOLLOW : 0;
    return wasi_result(spindle_fs_linkat(old_dirfd, from.text, new_dirfd, to.text, flags));
}

int32_t __imported_wasi_snapshot_preview1_path_rename(int32_t old_dirfd, int32_t old_path, int32_t old_len,
                                                      int32_t new_dirfd, int32_t new_path, int32_t new_len)
{
    struct wasi_path from, to;
    int32_t err = wasi_path_get(&from, (uint32_t)old_path, (uint32_t)old_len);
    if (err == WASI_ESUCCESS)
        err = wasi_path_then_ready(&to, (uint32_t)new_path, (uint32_t)new_len);
    if (err != WASI_ESUCCESS)
        return err;
    return wasi_result(spindle_fs_renameat(old_dirfd, from.text, new_dirfd, to.text));
}

int32_t __imported_wasi_snapshot_preview1_path_symlink(int32_t target, int32_t target_len, int32_t dirfd,
                                                       int32_t path, int32_t path_len)
{
    struct wasi_path t, p;
    int32_t err = wasi_path_get(&t, (uint32_t)target, (uint32_t)target_len);
    if (err == WASI_ESUCCESS)
        err = wasi_path_then_ready(&p, (uint32_t)path, (uint32_t)path_len);
    return err != WASI_ESUCCESS ? err : wasi_result(spindle_fs_symlinkat(t.text, dirfd, p.text));
}

int32_t __imported_wasi_snapshot_preview1_path_readlink(int32_t dirfd, int32_t path, int32_t path_len,
                                                        int32_t buf, int32_t buf_len, int32_t retptr)
{
    struct wasi_path p;
    int32_t err = wasi_path_get(&p, (uint32_t)path, (uint32_t)path_len);
    if (err == WASI_ESUCCESS &&
        (!wasi_in_memory((uint32_t)buf, (uint32_t)buf_len) || !wasi_in_memory((uint32_t)retptr, 4)))
        err = WASI_EFAULT;
    if (err == WASI_ESUCCESS)
        err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    int64_t n = spindle_fs_readlinkat(dirfd, p.text, WASI_PTR(buf), (uint32_t)buf_len);
    if (n < 0)
        return wasi_result(n);
    *(uint32_t *)WASI_PTR(retptr) = (uint32_t)n;
    return WASI_ESUCCESS;
}
