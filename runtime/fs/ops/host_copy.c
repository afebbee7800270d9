/* spindle_fs_copy_pieces: the host copies file contents itself, straight
 * between JavaScript and the file's chunks (one copy, no staging buffer in
 * linear memory), while this code holds the inode lock. */
#include "fs_ops.h"

/* file_data.c: the stored bytes at offset, a pointer into its chunk and, in
 * *avail, how many bytes of that chunk follow it (NULL and 0 for a hole).
 * Declared here rather than in core/fs_core.h: only this file uses it. */
char *file_data_piece(const struct file_data *data, int64_t offset, size_t *avail);

/* Not const: a const array of zeros would be stored in the module (4 KiB of its bytes);
 * this one is bss and only ever read. */
static char zeros[FS_CHUNK_SIZE];

/* Makes the chunk under [at, at+n) exist (zeros: the caller overwrites them) and
 * returns where those bytes live, or NULL when memory ran out.
 * Pieces handed out earlier stay valid: chunks never move, except a small
 * first chunk growing, and that happens only while reserving a piece inside
 * chunk 0, which comes first and is reserved up to the chunk's end whenever a
 * later piece follows. */
static char *reserve(struct inode *inode, int64_t at, size_t n)
{
    if (file_data_write(&inode->u.file, at, zeros, n) != (int64_t)n)
        return NULL;
    size_t avail;
    return file_data_piece(&inode->u.file, at, &avail);
}

static int64_t copy_locked(struct inode *inode, int64_t offset, int64_t len, bool in, spindle_piece_fn *visit,
                           void *ctx)
{
    int64_t end = offset + len;
    if (!in && end > inode->size)
        end = inode->size > offset ? inode->size : offset;
    int64_t at = offset;
    while (at < end) {
        size_t n = (size_t)(FS_CHUNK_SIZE - (at & (FS_CHUNK_SIZE - 1)));
        if ((int64_t)n > end - at)
            n = (size_t)(end - at);
        char *piece;
        if (in) {
            piece = reserve(inode, at, n);
            if (piece == NULL)
                break;
        } else {
            size_t avail;
            piece = file_data_piece(&inode->u.file, at, &avail);
            if (piece != NULL && avail < n) /* a small first chunk: the rest is a hole */
                n = avail;
        }
        visit(piece, n, at, ctx);
        at += (int64_t)n;
    }
    visit(NULL, 0, at, ctx);
    int64_t done = at - offset;
    if (in && done > 0) {
        if (at > inode->size)
            inode->size = at;
        inode->mtime_ns = inode->ctime_ns = fs_now_ns();
    }
    if (!in)
        inode_touch_atime(inode);
    return done == 0 && at < end ? -SPINDLE_ENOSPC : done;
}

int64_t spindle_fs_copy_pieces(int fd, int64_t offset, int64_t len, int direction, spindle_piece_fn *visit,
                               void *ctx)
{
    bool in = direction == SPINDLE_COPY_IN;
    if (offset < 0 || len < 0 || (!in && direction != SPINDLE_COPY_OUT))
        return -SPINDLE_EINVAL;
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    struct inode *inode = file->inode;
    int64_t rc = 0;
    if (inode->type == INODE_DIR)
        rc = -SPINDLE_EISDIR;
    else if (inode->type != INODE_FILE)
        rc = -SPINDLE_ENOTSUP; /* contents not stored here: the caller falls back to pread/pwrite */
    else if (in ? !open_file_writable(file) : !open_file_readable(file))
        rc = -SPINDLE_EBADF;
    else if (in && len > FS_MAX_FILE_SIZE - offset)
        rc = -SPINDLE_EFBIG;
    if (rc == 0) {
        if (in)
            inode_write_lock(inode);
        else
            inode_read_lock(inode);
        rc = copy_locked(inode, offset, len, in, visit, ctx);
        inode_unlock(inode);
    }
    open_file_unref(file);
    return rc;
}
