/* The open files of a mount (docs/MOUNTS.md, "Open files"): one INODE_REMOTE_FILE inode per
 * backend file open here (same mount and backend ino), shared by all its descriptions, each of
 * which holds its own backend handle. Writes go through to the backend before they return (what
 * write() returned for is in the host file, as on Linux); the inode holds a read-ahead buffer
 * under its lock (lock order level 4: one non-directory inode lock, innermost; the backend is
 * called while holding it). The mount's table of open files has a mutex that is a leaf:
 * nothing else is taken while holding it. */
#include "mount_internal.h"

#include <string.h>

#define SMALL_IO ((size_t)64 * 1024)  /* smaller reads read ahead; smaller writev()s go in one call */
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
        /* Another process's changes show at reopen; this module's own are
         * already in the inode, and newer than a stat that raced with them. */
        if (truncated || atomic_load(&m->changes) == changes_before)
            inode->size = st->size;
        r->rlen = 0; /* each open rereads (close-to-open consistency) */
        inode_unlock(inode);
    }
    *out = inode;
    return 0;
}

/* The last reference: out of the table. */
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

/* ---- close ---- */

/* The description's last reference: its backend handle is closed. */
static void release_description(struct open_file *file)
{
    struct fs_mount *m = file->inode->u.remote_file.mount;
    m->ops->close(m->ctx, file->handle);
}

/* ---- I/O on open files ---- */

/* A small read through the read-ahead cache (caller holds the write lock). */
static int64_t read_cached(struct inode *inode, uint64_t handle, uint8_t *dst, int64_t n, int64_t at)
{
    struct remote_file *r = &inode->u.remote_file;
    if (!(r->rlen > 0 && at >= r->roff && at + n <= r->roff + (int64_t)r->rlen)) {
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
    /* Large reads go straight into the caller's buffer under the shared lock (readers of one
     * file run in parallel); small ones may fill the cache, so they take the write lock. */
    bool direct = total >= (int64_t)SMALL_IO;
    if (direct)
        inode_read_lock(inode);
    else
        inode_write_lock(inode);
    for (int i = 0; i < iovcnt; i++) {
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

/* A small writev() of several buffers, gathered so that it reaches the backend in one call (as
 * one writev(2) would): the bytes, or NULL (one call per buffer then). */
static uint8_t *gathered(const struct spindle_iovec *iov, int iovcnt, int64_t total)
{
    if (iovcnt < 2 || total >= (int64_t)SMALL_IO)
        return NULL;
    uint8_t *all = fs_malloc((size_t)total);
    size_t at = 0;
    for (int i = 0; all != NULL && i < iovcnt && at < (size_t)total; i++) {
        size_t len = iov[i].len < (size_t)total - at ? iov[i].len : (size_t)total - at;
        memcpy(all + at, iov[i].base, len);
        at += len;
    }
    return all;
}

/* Every write reaches the backend before it returns: the bytes are in the host file (Node:
 * the kernel's page cache; OPFS: the sync access handle) when write() returns, so a crash or a
 * kill of the program keeps them, and other processes read them at once. */
static int64_t remote_write(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                            int64_t *offsetp, int64_t total)
{
    struct inode *inode = file->inode;
    struct remote_file *r = &inode->u.remote_file;
    struct fs_mount *m = r->mount;
    int status = atomic_load_explicit(&file->status, memory_order_relaxed);
    uint8_t *all = gathered(iov, iovcnt, total);
    struct spindle_iovec one = {all, (size_t)total};
    if (all != NULL) {
        iov = &one;
        iovcnt = 1;
    }
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
        int64_t n = pwrite_all(m, file->handle, iov[i].base, len, offset + done);
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
    /* O_SYNC/O_DSYNC: durable when write returns; a failed sync fails the write, as on Linux */
    if ((status & SPINDLE_O_DSYNC) && done > 0) {
        int sync = m->ops->fsync(m->ctx, file->handle, (status & SPINDLE_O_SYNC) != SPINDLE_O_SYNC);
        if (sync < 0)
            rc = sync, done = 0;
    }
    inode_unlock(inode);
    fs_free(all);
    return done > 0 ? done : rc;
}

static int remote_fstat(struct open_file *file, struct spindle_stat *st)
{
    struct inode *inode = file->inode;
    struct fs_mount *m = inode->u.remote_file.mount;
    inode_write_lock(inode);
    int rc = m->ops->fstat(m->ctx, file->handle, st);
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
    int rc = r->mount->ops->ftruncate(r->mount->ctx, file->handle, length);
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
    struct fs_mount *m = file->inode->u.remote_file.mount;
    return m->ops->fsync(m->ctx, file->handle, datasync);
}

static int remote_futimens(struct open_file *file, const struct spindle_timespec times[2])
{
    struct fs_mount *m = file->inode->u.remote_file.mount;
    return m->ops->futimens(m->ctx, file->handle, times);
}

static int remote_fchmod(struct open_file *file, uint32_t mode)
{
    struct fs_mount *m = file->inode->u.remote_file.mount;
    return m->ops->fchmod ? m->ops->fchmod(m->ctx, file->handle, mode) : -SPINDLE_EPERM;
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
    .release = release_description,
    .free = free_file,
};
