/* read/write and friends, lseek, ftruncate, fsync, fallocate, F_GETFL/F_SETFL.
 * Lock order: the description's position lock, then the inode lock. Reads of a
 * regular file nobody is writing take no lock at all (reader_slots.c), so many
 * readers of one file run in parallel without sharing a cache line. */
#include "fs_ops.h"

#include <string.h>

#define IOV_MAX_COUNT 1024

static int64_t iov_total(const struct spindle_iovec *iov, int iovcnt)
{
    if (iovcnt < 0 || iovcnt > IOV_MAX_COUNT)
        return -SPINDLE_EINVAL;
    int64_t total = 0;
    for (int i = 0; i < iovcnt; i++) {
        if (iov[i].len > (size_t)INT64_MAX - (size_t)total)
            return -SPINDLE_EINVAL;
        total += (int64_t)iov[i].len;
    }
    return total;
}

/* iov_total capped at what one read or write moves (Linux's MAX_RW_COUNT). */
static int64_t transfer_size(const struct spindle_iovec *iov, int iovcnt)
{
    int64_t total = iov_total(iov, iovcnt);
    return total > MAX_RW_COUNT ? MAX_RW_COUNT : total;
}

/* offset < 0 means "at the description's position": locks it and puts it in *offset, and
 * answers true; the caller then ends with release_position. */
static inline bool hold_position(struct open_file *file, int64_t *offset)
{
    if (*offset >= 0)
        return false;
    pthread_mutex_lock(&file->pos_lock);
    *offset = file->pos;
    return true;
}

/* Moves the held position past the n bytes moved at offset (not on an error, n < 0). */
static inline void release_position(struct open_file *file, int64_t offset, int64_t n)
{
    if (n >= 0)
        file->pos = offset + n;
    pthread_mutex_unlock(&file->pos_lock);
}

#define TAKE_LOCKS INT64_MIN

/* read/pread of a regular file without locks when no writer holds it (reader_slots.c).
 * TAKE_LOCKS: do it the locked way, which also reports every error. */
static int64_t read_lock_free(int fd, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    struct reader_slot *slot = reader_slot_mine();
    struct open_file *file = slot ? reader_slot_hold_fd(slot, fd) : NULL;
    if (file == NULL)
        return TAKE_LOCKS;
    int64_t done = TAKE_LOCKS;
    if (open_file_readable(file) && iov_total(iov, iovcnt) >= 0) {
        /* the position before the inode: a reader holding one must not block */
        bool use_pos = hold_position(file, &offset);
        if (reader_slot_hold_inode(slot, file->inode))
            done = mem_file_copy_out(file->inode, iov, iovcnt, offset);
        if (use_pos) /* TAKE_LOCKS is negative: the position stays for the locked read */
            release_position(file, offset, done);
    }
    reader_slot_clear(slot);
    return done;
}

/* A description opened the other way: Linux checks that pread and pwrite have a position
 * before it checks the access mode, so a pipe's end says ESPIPE to them, not EBADF. offset < 0:
 * read or write. */
static int64_t access_error(struct open_file *file, int64_t offset)
{
    const struct inode_ops *ops = file->inode->ops;
    bool no_position =
        ops->format == SPINDLE_S_IFIFO || (ops->format == SPINDLE_S_IFCHR && !device_has_position(file));
    return offset >= 0 && no_position ? -SPINDLE_ESPIPE : -SPINDLE_EBADF;
}

/* The description's position (offset < 0) or pread's offset, as the inode's format wants:
 * a FIFO has none (ESPIPE) and a character device ignores it. offset < 0: use and advance the
 * description's position. */
static int64_t read_file(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    const struct inode_ops *ops = file->inode->ops;
    if (!open_file_readable(file))
        return access_error(file, offset);
    if (ops->read == NULL)
        return -SPINDLE_EISDIR;
    int64_t total = transfer_size(iov, iovcnt);
    if (total < 0)
        return total;
    if (ops->format == SPINDLE_S_IFIFO) /* no position: a reader may block, holding nothing */
        return offset >= 0 ? -SPINDLE_ESPIPE : ops->read(file, iov, iovcnt, 0, total);
    if (ops->format == SPINDLE_S_IFCHR) /* pread's offset or -1: stdio's host decides (device.c) */
        return ops->read(file, iov, iovcnt, offset, total);
    bool use_pos = hold_position(file, &offset);
    int64_t n = ops->read(file, iov, iovcnt, offset, total);
    if (use_pos)
        release_position(file, offset, n);
    return n;
}

static int64_t write_file(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    const struct inode_ops *ops = file->inode->ops;
    if (!open_file_writable(file))
        return access_error(file, offset);
    if (ops->write == NULL)
        return -SPINDLE_EISDIR;
    int64_t total = transfer_size(iov, iovcnt);
    if (total < 0)
        return total;
    int64_t unused = 0;
    if (ops->format == SPINDLE_S_IFIFO)
        return offset >= 0 ? -SPINDLE_ESPIPE : ops->write(file, iov, iovcnt, &unused, total);
    if (ops->format == SPINDLE_S_IFCHR)
        return ops->write(file, iov, iovcnt, &offset, total);
    bool use_pos = hold_position(file, &offset);
    int64_t n = ops->write(file, iov, iovcnt, &offset, total);
    if (use_pos)
        release_position(file, offset, n);
    return n;
}

typedef int64_t (*transfer_fn)(struct open_file *, const struct spindle_iovec *, int, int64_t);

static int64_t with_file(int fd, transfer_fn fn, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    if (fn == read_file) {
        int64_t done = read_lock_free(fd, iov, iovcnt, offset);
        if (done != TAKE_LOCKS)
            return done;
    } else {
        /* A write to a regular file holds its description in the reader slot, not through the
         * fd stripe lock and a reference: a closer waits for the slot (reader_slots.c). It may
         * block on the position and inode locks meanwhile, as a lock-free read may on the
         * position lock; no one holds those while dropping a description's last reference. */
        struct reader_slot *slot = reader_slot_mine();
        struct open_file *held = slot ? reader_slot_hold_fd(slot, fd) : NULL;
        if (held != NULL) {
            int64_t rc = fn(held, iov, iovcnt, offset);
            reader_slot_clear(slot);
            return rc;
        }
    }
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    int64_t rc = fn(file, iov, iovcnt, offset);
    open_file_unref(file);
    return rc;
}

int64_t spindle_fs_read(int fd, void *buf, size_t len)
{
    struct spindle_iovec iov = {buf, len};
    return with_file(fd, read_file, &iov, 1, -1);
}

int64_t spindle_fs_write(int fd, const void *buf, size_t len)
{
    struct spindle_iovec iov = {(void *)buf, len};
    return with_file(fd, write_file, &iov, 1, -1);
}

int64_t spindle_fs_readv(int fd, const struct spindle_iovec *iov, int iovcnt)
{
    return with_file(fd, read_file, iov, iovcnt, -1);
}

int64_t spindle_fs_writev(int fd, const struct spindle_iovec *iov, int iovcnt)
{
    return with_file(fd, write_file, iov, iovcnt, -1);
}

/* pread/pwrite at a negative offset: EINVAL, but EBADF first when fd is not open. */
static int64_t negative_offset_error(int fd)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    open_file_unref(file);
    return -SPINDLE_EINVAL;
}

int64_t spindle_fs_preadv(int fd, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    if (offset < 0)
        return negative_offset_error(fd);
    return with_file(fd, read_file, iov, iovcnt, offset);
}

int64_t spindle_fs_pwritev(int fd, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    if (offset < 0)
        return negative_offset_error(fd);
    return with_file(fd, write_file, iov, iovcnt, offset);
}

int64_t spindle_fs_pread(int fd, void *buf, size_t len, int64_t offset)
{
    struct spindle_iovec iov = {buf, len};
    return spindle_fs_preadv(fd, &iov, 1, offset);
}

int64_t spindle_fs_pwrite(int fd, const void *buf, size_t len, int64_t offset)
{
    struct spindle_iovec iov = {(void *)buf, len};
    return spindle_fs_pwritev(fd, &iov, 1, offset);
}

int64_t spindle_fs_lseek(int fd, int64_t offset, int whence)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    uint32_t format = file->inode->ops->format;
    int64_t (*seek)(struct open_file *, int64_t, int) = file->inode->ops->seek;
    if (seek != NULL || format == SPINDLE_S_IFIFO) {
        int64_t rc = seek != NULL ? seek(file, offset, whence) : -SPINDLE_ESPIPE;
        open_file_unref(file);
        return rc;
    }
    int64_t result = 0;
    pthread_mutex_lock(&file->pos_lock);
    int64_t base = 0;
    switch (whence) {
    case SPINDLE_SEEK_SET:
        base = 0;
        break;
    case SPINDLE_SEEK_CUR:
        base = file->pos;
        break;
    case SPINDLE_SEEK_END:
        inode_read_lock(file->inode);
        base = format == SPINDLE_S_IFREG ? file->inode->size : 0; /* a mount's file keeps it too */
        inode_unlock(file->inode);
        break;
    default:
        result = -SPINDLE_EINVAL;
    }
    if (result == 0) {
        if (__builtin_add_overflow(base, offset, &result) || result < 0)
            result = -SPINDLE_EINVAL;
        else
            file->pos = result;
    }
    pthread_mutex_unlock(&file->pos_lock);
    open_file_unref(file);
    return result;
}

int spindle_fs_ftruncate(int fd, int64_t length)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    const struct inode_ops *ops = file->inode->ops;
    int rc;
    if (!open_file_writable(file) || ops->truncate == NULL || length < 0)
        rc = -SPINDLE_EINVAL;
    else if (length > FS_MAX_FILE_SIZE)
        rc = -SPINDLE_EFBIG;
    else
        rc = ops->truncate(file, length);
    open_file_unref(file);
    return rc;
}

int spindle_fs_fallocate(int fd, int64_t offset, int64_t len)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    const struct inode_ops *ops = file->inode->ops;
    int rc;
    int64_t end;
    if (offset < 0 || len <= 0)
        rc = -SPINDLE_EINVAL;
    else if (!open_file_writable(file))
        rc = -SPINDLE_EBADF;
    else if (ops->allocate == NULL)
        rc = ops->format == SPINDLE_S_IFDIR   ? -SPINDLE_EISDIR
             : ops->format == SPINDLE_S_IFIFO ? -SPINDLE_ESPIPE
                                              : -SPINDLE_ENODEV;
    else if (__builtin_add_overflow(offset, len, &end) || end > FS_MAX_FILE_SIZE)
        rc = -SPINDLE_EFBIG;
    else
        rc = ops->allocate(file, end);
    open_file_unref(file);
    return rc;
}

/* Memory needs no syncing (the fd is validated); a mounted file is written
 * through to its backend and synced there. */
static int sync_fd(int fd, int datasync)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    int rc = file->inode->ops->sync ? file->inode->ops->sync(file, datasync) : 0;
    open_file_unref(file);
    return rc;
}

int spindle_fs_fsync(int fd) { return sync_fd(fd, 0); }

int spindle_fs_fdatasync(int fd) { return sync_fd(fd, 1); }

/* (libc's open asks this of its directory, the one WASI preopen, on every call) */
int spindle_fs_getfl(int fd)
{
    struct reader_slot *held_in;
    struct open_file *file = description_get(fd, &held_in);
    if (file == NULL)
        return -SPINDLE_EBADF;
    int flags = file->access | atomic_load(&file->status);
    description_put(file, held_in);
    return flags;
}

int spindle_fs_setfl(int fd, int flags)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    const int changeable = SPINDLE_O_APPEND | SPINDLE_O_NONBLOCK;
    int old = atomic_load(&file->status);
    while (!atomic_compare_exchange_weak(&file->status, &old, (old & ~changeable) | (flags & changeable)))
        ;
    open_file_unref(file);
    return 0;
}
