/* Regular files in memory: what their inode table (mem_file_ops) does once they are open.
 * Reads take the shared inode lock, or none at all through a reader slot (ops_io.c,
 * reader_slots.c); writes, truncation and allocation take the write lock. */
#include "fs_core.h"

int64_t mem_file_copy_out(struct inode *inode, const struct spindle_iovec *iov, int iovcnt, int64_t offset)
{
    int64_t done = 0;
    for (int i = 0; i < iovcnt && done < MAX_RW_COUNT; i++) {
        int64_t at = offset + done;
        if (at >= inode->size)
            break;
        int64_t n = (int64_t)iov[i].len;
        if (n > inode->size - at)
            n = inode->size - at;
        if (n > MAX_RW_COUNT - done)
            n = MAX_RW_COUNT - done;
        file_data_read(&inode->u.file, at, iov[i].base, (size_t)n);
        done += n;
        if (n < (int64_t)iov[i].len)
            break;
    }
    inode_touch_atime(inode);
    return done;
}

static int64_t read_locked(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                           int64_t offset, int64_t total)
{
    (void)total; /* mem_file_copy_out stops at MAX_RW_COUNT itself */
    struct inode *inode = file->inode;
    inode_read_lock(inode);
    int64_t done = mem_file_copy_out(inode, iov, iovcnt, offset);
    inode_unlock(inode);
    return done;
}

static int64_t write_locked(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                            int64_t *offsetp, int64_t total)
{
    struct inode *inode = file->inode;
    int64_t done = 0, rc = 0;
    inode_write_lock(inode);
    int64_t offset = *offsetp;
    /* O_APPEND wins even over pwrite's offset, as on Linux */
    if (atomic_load_explicit(&file->status, memory_order_relaxed) & SPINDLE_O_APPEND)
        offset = inode->size;
    *offsetp = offset;
    if (total > 0 && offset >= FS_MAX_FILE_SIZE)
        rc = -SPINDLE_EFBIG;
    else if (total > FS_MAX_FILE_SIZE - offset)
        total = FS_MAX_FILE_SIZE - offset;
    for (int i = 0; rc == 0 && i < iovcnt && done < total; i++) {
        size_t len = iov[i].len;
        if ((int64_t)len > total - done)
            len = (size_t)(total - done);
        int64_t n = file_data_write(&inode->u.file, offset + done, iov[i].base, len);
        if (n < 0) {
            if (done == 0)
                rc = n;
            break;
        }
        done += n;
        if ((size_t)n < len)
            break;
    }
    if (done > 0) {
        if (offset + done > inode->size)
            inode->size = offset + done;
        inode->mtime_ns = inode->ctime_ns = fs_now_ns();
    }
    inode_unlock(inode);
    return rc < 0 ? rc : done;
}

void mem_file_truncate(struct inode *inode, int64_t length)
{
    inode_write_lock(inode);
    file_data_truncate(&inode->u.file, inode->size, length);
    inode->size = length;
    inode->mtime_ns = inode->ctime_ns = fs_now_ns();
    inode_unlock(inode);
}

static int truncate_open(struct open_file *file, int64_t length)
{
    mem_file_truncate(file->inode, length);
    return 0;
}

/* Holes cost nothing, so allocating is growing the size. */
static int allocate_locked(struct open_file *file, int64_t end)
{
    struct inode *inode = file->inode;
    inode_write_lock(inode);
    if (end > inode->size) {
        inode->size = end;
        inode->ctime_ns = inode->mtime_ns = fs_now_ns();
    }
    inode_unlock(inode);
    return 0;
}

static struct inode *free_data(struct inode *inode)
{
    file_data_free(&inode->u.file);
    return NULL;
}

const struct inode_ops mem_file_ops = {
    .format = SPINDLE_S_IFREG,
    .read = read_locked,
    .write = write_locked,
    .truncate = truncate_open,
    .allocate = allocate_locked,
    .free = free_data,
};
