/* The open files of a mount (docs/MOUNTS.md, "Open files"): one INODE_REMOTE_FILE inode per
 * backend file open here (same mount and backend ino), shared by all its descriptions, each of
 * which holds its own backend handle. The inode holds a write-coalescing buffer and a
 * read-ahead buffer under its lock (lock order level 4: one non-directory inode lock,
 * innermost; the backend is called while holding it). The mount's table of open files has a
 * mutex that is a leaf: nothing else is taken while holding it. */
#include "mount_internal.h"

#include <string.h>

#define SMALL_IO ((size_t)64 * 1024)  /* smaller writes are coalesced, smaller reads read ahead */
#define WBUF_MIN ((size_t)64 * 1024)
#define WBUF_MAX ((size_t)1024 * 1024)
#define READ_AHEAD ((size_t)256 * 1024)

/* ---- the table of open files ---- */

/* A reference unless the inode is already on its way out (refs == 0). */
static bool try_ref(struct inode *inode)
{
    uint_fast32_t refs = atomic_load(&inode->refs);
    while (refs != 0) {
        if (atomic_compare_exchange_weak(&inode->refs, &refs, refs + 1))
            return true;
    }
    return false;
}

static struct inode *table_find(struct fs_mount *m, uint64_t ino) /* table_lock held */
{
    for (struct inode *x = m->table[ino % REMOTE_TABLE_SIZE]; x != NULL; x = x->u.remote_file.hash_next)
        if (x->u.remote_file.backend_ino == ino && try_ref(x))
            return x;
    return NULL;
}

static struct inode *remote_file_new(struct fs_mount *m, const struct spindle_stat *st)
{
    struct inode *inode = inode_new(INODE_REMOTE_FILE, &remote_file_ops, st->mode & 07777);
    if (inode == NULL)
        return NULL;
    inode->u.remote_file.mount = m;
    inode->u.remote_file.backend_ino = st->ino;
    inode->size = st->size;
    inode->nlink = st->nlink;
    return inode;
}

/* A size read while another description's write was landing is stale (appends
 * through a new inode would overwrite those bytes), so it is read again. */
int remote_file_get(struct fs_mount *m, uint64_t handle, struct spindle_stat *st, bool truncated,
                    uint_fast64_t changes_before, struct inode **out)
{
    struct inode *inode;
    bool found;
    for (;;) {
        pthread_mutex_lock(&m->table_lock);
        inode = table_find(m, st->ino);
        found = inode != NULL;
        if (found || atomic_load(&m->changes) == changes_before)
            break;
        pthread_mutex_unlock(&m->table_lock);
        changes_before = atomic_load(&m->changes);
        int rc = m->ops->fstat(m->ctx, handle, st);
        if (rc < 0)
            return rc;
    }
    if (!found) {
        inode = remote_file_new(m, st);
        if (inode != NULL) {
            struct inode **slot = &m->table[st->ino % REMOTE_TABLE_SIZE];
            inode->u.remote_file.hash_next = *slot;
            *slot = inode;
        }
    }
    pthread_mutex_unlock(&m->table_lock);
    if (inode == NULL)
        return -SPINDLE_ENOMEM;
    if (found) { /* another description has it: refresh what the open told us */
        struct remote_file *r = &inode->u.remote_file;
        inode_write_lock(inode);
        if (truncated)
            r->wlen = 0; /* written before the truncation: gone either way */
        /* Another process's changes show at reopen; this module's own are
         * already in the inode, and newer than a stat that raced with them. */
        if (truncated || (r->wlen == 0 && atomic_load(&m->changes) == changes_before))
            inode->size = st->size;
        r->rlen = 0; /* each open rereads (close-to-open consistency) */
        inode_unlock(inode);
    }
    *out = inode;
    return 0;
}

/* The last reference (the last writable description wrote the buffer out): out of the table. */
static struct inode *free_file(struct inode *inode)
{
    struct remote_file *r = &inode->u.remote_file;
    struct fs_mount *m = r->mount;
    pthread_mutex_lock(&m->table_lock);
    for (struct inode **p = &m->table[r->backend_ino % REMOTE_TABLE_SIZE]; *p != NULL;
         p = &(*p)->u.remote_file.hash_next) {
        if (*p == inode) {
            *p = r->hash_next;
            break;
        }
    }
    pthread_mutex_unlock(&m->table_lock);
    fs_free(r->wbuf);
    fs_free(r->rbuf);
    return NULL;
}

/* ---- backend transfers ---- */

static int64_t pwrite_all(struct fs_mount *m, uint64_t handle, const uint8_t *buf, size_t len, int64_t off)
{
    size_t done = 0;
    int64_t n = 0;
    while (done < len) {
        n = m->ops->pwrite(m->ctx, handle, buf + done, len - done, off + (int64_t)done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    atomic_fetch_add(&m->changes, 1); /* after the bytes landed: see remote_file_get */
    if (done > 0)
        return (int64_t)done;
    return n < 0 ? n : -SPINDLE_EIO;
}

/* Reads at least `min` bytes (fewer at end of file) and at most `max`: a read-ahead fill needs
 * only what was asked for, so a file shorter than the cache costs one backend call, not a second
 * one that finds the end. */
static int64_t pread_at_least(struct fs_mount *m, uint64_t handle, uint8_t *buf, size_t min, size_t max,
                              int64_t off)
{
    size_t done = 0;
    while (done < min) {
        int64_t n = m->ops->pread(m->ctx, handle, buf + done, max - done, off + (int64_t)done);
        if (n < 0)
            return done > 0 ? (int64_t)done : n;
        if (n == 0)
            break;
        done += (size_t)n;
    }
    return (int64_t)done;
}

static int64_t pread_full(struct fs_mount *m, uint64_t handle, uint8_t *buf, size_t len, int64_t off)
{
    return pread_at_least(m, handle, buf, len, len, off);
}

/* Writes the dirty buffer out (caller holds the write lock). */
static int flush_locked(struct inode *inode)
{
    struct remote_file *r = &inode->u.remote_file;
    if (r->wlen == 0)
        return 0;
    int64_t n = pwrite_all(r->mount, r->whandle, r->wbuf, r->wlen, r->woff);
    int rc = 0;
    if (n < 0 || (size_t)n < r->wlen) {
        rc = n < 0 ? (int)n : -SPINDLE_EIO;
        r->werr = rc;
    }
    r->wlen = 0;
    return rc;
}

static int take_werr(struct remote_file *r)
{
    int rc = r->werr;
    r->werr = 0;
    return rc;
}

static int ensure_cap(uint8_t **buf, size_t *cap, size_t need, size_t min, size_t max)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap < min ? min : *cap;
    while (cap2 < need)
        cap2 *= 2;
    if (cap2 > max)
        cap2 = max;
    if (cap2 < need)
        return -SPINDLE_ENOMEM;
    uint8_t *p = fs_realloc(*buf, cap2);
    if (p == NULL)
        return -SPINDLE_ENOMEM;
    *buf = p;
    *cap = cap2;
    return 0;
}

/* ---- open / close ---- */

/* The description's last reference: write through, then close the handle. */
static void release_description(struct open_file *file)
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    if (open_file_writable(file)) {
        inode_write_lock(inode);
        flush_locked(inode);
        inode_unlock(inode);
    }
    r->mount->ops->close(r->mount->ctx, file->handle);
}

/* close() of a writable fd: the data is in the backend when it returns. */
static int close_fd(struct open_file *file)
{
    struct inode *inode = file->inode;
    if (!open_file_writable(file))
        return 0;
    inode_write_lock(inode);
    int rc = flush_locked(inode);
    int deferred = take_werr(&inode->u.remote_file);
    inode_unlock(inode);
    return rc < 0 ? rc : deferred;
}

/* ---- I/O on open files ---- */

/* A small read through the read-ahead cache (caller holds the write lock). */
static int64_t read_cached(struct inode *inode, uint64_t handle, uint8_t *dst, int64_t n, int64_t at)
{
    struct remote_file *r = &inode->u.remote_file;
    if (!(r->rlen > 0 && at >= r->roff && at + n <= r->roff + (int64_t)r->rlen)) {
        /* refill; the dirty buffer first, or the cache could hold stale bytes */
        int rc = r->wlen > 0 ? flush_locked(inode) : 0;
        if (rc < 0)
            return rc;
        r->rlen = 0;
        if (ensure_cap(&r->rbuf, &r->rcap, READ_AHEAD, READ_AHEAD, READ_AHEAD) == 0) {
            int64_t filled = pread_at_least(r->mount, handle, r->rbuf, (size_t)n, READ_AHEAD, at);
            if (filled < 0)
                return filled;
            r->roff = at;
            r->rlen = (size_t)filled;
        }
    }
    if (r->rlen > 0 && at >= r->roff && at < r->roff + (int64_t)r->rlen) {
        int64_t avail = r->roff + (int64_t)r->rlen - at;
        int64_t got = n < avail ? n : avail;
        memcpy(dst, r->rbuf + (at - r->roff), (size_t)got);
        return got;
    }
    return pread_full(r->mount, handle, dst, (size_t)n, at); /* no memory for the cache */
}

static int64_t remote_read(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                           int64_t offset, int64_t total)
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    int64_t done = 0, rc = 0;
    /* Large reads with nothing dirty go straight into the caller's buffer under the shared
     * lock (readers of one file run in parallel); others may fill the cache or flush, so
     * they take the write lock. */
    inode_read_lock(inode);
    bool direct = r->wlen == 0 && total >= (int64_t)SMALL_IO;
    if (!direct) {
        inode_unlock(inode);
        inode_write_lock(inode);
        if (r->wlen > 0 && offset < r->woff + (int64_t)r->wlen && r->woff < offset + total)
            rc = flush_locked(inode);
    }
    for (int i = 0; rc == 0 && i < iovcnt; i++) {
        int64_t at = offset + done;
        if (at >= inode->size)
            break;
        int64_t n = (int64_t)iov[i].len < inode->size - at ? (int64_t)iov[i].len : inode->size - at;
        if (n == 0)
            continue; /* an empty iovec */
        int64_t got = direct || n >= (int64_t)SMALL_IO
                          ? pread_full(r->mount, file->handle, iov[i].base, (size_t)n, at)
                          : read_cached(inode, file->handle, iov[i].base, n, at);
        if (got < 0) {
            rc = got;
            break;
        }
        done += got;
        if (got < (int64_t)iov[i].len)
            break;
    }
    inode_unlock(inode);
    return done > 0 ? done : rc;
}

static int64_t remote_write(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                            int64_t *offsetp, int64_t total)
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    struct fs_mount *m = r->mount;
    int status = atomic_load_explicit(&file->status, memory_order_relaxed);
    bool sync = (status & SPINDLE_O_DSYNC) != 0; /* O_SYNC/O_DSYNC: durable when write returns */
    inode_write_lock(inode);
    int64_t offset = *offsetp;
    if (status & SPINDLE_O_APPEND)
        offset = inode->size;
    *offsetp = offset;
    int64_t done = 0, rc = 0;
    for (int i = 0; i < iovcnt && done < total; i++) {
        size_t len = iov[i].len;
        if ((int64_t)len > total - done)
            len = (size_t)(total - done);
        if (len == 0)
            continue;
        const uint8_t *src = iov[i].base;
        int64_t at = offset + done;
        int64_t n;
        if (len < SMALL_IO && !sync) {
            if (r->wlen > 0 && (at != r->woff + (int64_t)r->wlen || r->wlen + len > WBUF_MAX) &&
                (rc = flush_locked(inode)) < 0)
                break;
            if (ensure_cap(&r->wbuf, &r->wcap, r->wlen + len, WBUF_MIN, WBUF_MAX) == 0) {
                if (r->wlen == 0)
                    r->woff = at;
                memcpy(r->wbuf + r->wlen, src, len);
                r->wlen += len;
                r->whandle = file->handle;
                n = (int64_t)len;
            } else { /* no memory for a buffer: write through */
                if ((rc = flush_locked(inode)) < 0)
                    break;
                n = pwrite_all(m, file->handle, src, len, at);
            }
        } else {
            if ((rc = flush_locked(inode)) < 0)
                break;
            n = pwrite_all(m, file->handle, src, len, at);
        }
        if (n < 0) {
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
        r->rlen = 0;
    }
    if (sync && done > 0) {
        int src = m->ops->fsync(m->ctx, file->handle, (status & SPINDLE_O_SYNC) != SPINDLE_O_SYNC);
        if (src < 0)
            r->werr = src; /* the bytes were written; the sync error is reported at fsync/close */
    }
    inode_unlock(inode);
    return done > 0 ? done : rc;
}

static int remote_fstat(struct open_file *file, struct spindle_stat *st)
{
    struct inode *inode = file->inode;
    struct fs_mount *m = inode->u.remote_file.mount;
    inode_write_lock(inode);
    int rc = flush_locked(inode);
    if (rc == 0)
        rc = m->ops->fstat(m->ctx, file->handle, st);
    if (rc == 0)
        inode->size = st->size; /* also picks up growth by others */
    inode_unlock(inode);
    if (rc == 0)
        mount_fix_stat(m, st);
    return rc;
}

/* Caller holds the inode's write lock. */
static int resize_locked(struct open_file *file, int64_t length)
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    int rc = flush_locked(inode);
    if (rc == 0)
        rc = r->mount->ops->ftruncate(r->mount->ctx, file->handle, length);
    atomic_fetch_add(&r->mount->changes, 1); /* after the size changed: see remote_file_get */
    if (rc == 0)
        inode->size = length;
    r->rlen = 0;
    return rc;
}

static int remote_ftruncate(struct open_file *file, int64_t length)
{
    inode_write_lock(file->inode);
    int rc = resize_locked(file, length);
    inode_unlock(file->inode);
    return rc;
}

static int remote_fallocate(struct open_file *file, int64_t end)
{
    inode_write_lock(file->inode);
    int rc = end > file->inode->size ? resize_locked(file, end) : 0;
    inode_unlock(file->inode);
    return rc;
}

static int remote_fsync(struct open_file *file, int datasync)
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    inode_write_lock(inode);
    int rc = flush_locked(inode);
    int deferred = take_werr(r);
    inode_unlock(inode);
    if (rc == 0)
        rc = deferred;
    if (rc == 0)
        rc = r->mount->ops->fsync(r->mount->ctx, file->handle, datasync);
    return rc;
}

static int remote_futimens(struct open_file *file, const struct spindle_timespec times[2])
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    inode_write_lock(inode);
    int rc = flush_locked(inode); /* a later flush would move mtime again */
    if (rc == 0)
        rc = r->mount->ops->futimens(r->mount->ctx, file->handle, times);
    inode_unlock(inode);
    return rc;
}

static int remote_fchmod(struct open_file *file, uint32_t mode)
{
    struct fs_mount *m = file->inode->u.remote_file.mount;
    return m->ops->fchmod ? m->ops->fchmod(m->ctx, file->handle, mode) : -SPINDLE_EPERM;
}

/* ---- writing out buffered writes from outside ---- */

bool remote_file_flush_if_open(struct fs_mount *m, const struct spindle_stat *st)
{
    if ((st->mode & SPINDLE_S_IFMT) != SPINDLE_S_IFREG)
        return false;
    pthread_mutex_lock(&m->table_lock);
    struct inode *inode = table_find(m, st->ino);
    pthread_mutex_unlock(&m->table_lock);
    if (inode == NULL)
        return false;
    inode_write_lock(inode);
    bool dirty = inode->u.remote_file.wlen > 0;
    if (dirty)
        flush_locked(inode);
    inode_unlock(inode);
    inode_unref(inode);
    return dirty;
}

int remote_files_flush(struct fs_mount *m)
{
    int first = 0;
    for (int b = 0; b < REMOTE_TABLE_SIZE; b++) {
        for (;;) { /* one dirty inode at a time: the lock is a leaf */
            struct inode *dirty = NULL;
            pthread_mutex_lock(&m->table_lock);
            for (struct inode *x = m->table[b]; x != NULL && dirty == NULL; x = x->u.remote_file.hash_next) {
                /* wlen read without the inode lock only to pick candidates;
                 * the flush below re-checks under it */
                if (__atomic_load_n(&x->u.remote_file.wlen, __ATOMIC_RELAXED) > 0 && try_ref(x))
                    dirty = x;
            }
            pthread_mutex_unlock(&m->table_lock);
            if (dirty == NULL)
                break;
            inode_write_lock(dirty);
            int rc = flush_locked(dirty);
            inode_unlock(dirty);
            inode_unref(dirty);
            if (rc < 0 && first == 0)
                first = rc;
        }
    }
    return first;
}

const struct inode_ops remote_file_ops = {
    .format = SPINDLE_S_IFREG,
    .in_backend = true,
    .read = remote_read,
    .write = remote_write,
    .fstat = remote_fstat,
    .truncate = remote_ftruncate,
    .allocate = remote_fallocate,
    .sync = remote_fsync,
    .set_times = remote_futimens,
    .set_mode = remote_fchmod,
    .close = close_fd,
    .release = release_description,
    .free = free_file,
};
