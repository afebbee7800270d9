/* Mounts: directories of the tree bound to a backend (docs/MOUNTS.md).
 *
 * The path walk hands everything after a mount point to mount_walk, which
 * normalizes it into a relative path for the backend: ".." is handled here
 * (after a symlink to a directory it goes to the target's parent, as Linux;
 * at the mount's root it leaves the mount). Open backend files are
 * INODE_REMOTE inodes shared by every description of the same backend file,
 * holding a write-coalescing buffer and a read-ahead buffer under the inode's
 * lock (lock order level 4: one non-directory inode lock, innermost; the
 * backend is called while holding it). The per-mount inode table's mutex is
 * a leaf: nothing else is taken while holding it. */
#include "fs_internal.h"

#include <string.h>

#define SMALL_IO ((size_t)64 * 1024)  /* smaller writes are coalesced, smaller reads read ahead */
#define WBUF_MIN ((size_t)64 * 1024)
#define WBUF_MAX ((size_t)1024 * 1024)
#define READ_AHEAD ((size_t)256 * 1024)
#define TABLE_SIZE 256

struct fs_mount {
    int id;
    const struct spindle_mount_backend *ops;
    void *ctx;
    struct inode *point; /* counted reference, forever */
    pthread_mutex_t table_lock;
    struct inode *table[TABLE_SIZE]; /* open backend files by backend ino */
    /* Bumped by every write or resize this module makes through the backend:
     * an open whose stat raced with one must not take its (older) size. */
    atomic_uint_fast64_t changes;
};

static struct fs_mount *mounts[SPINDLE_MOUNT_MAX];
static int mount_count;
static pthread_mutex_t mount_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t mount_dev(const struct fs_mount *m) { return 2 + (uint64_t)m->id; }

bool mount_is_point(const struct inode *dir)
{
    return dir->type == INODE_DIR && atomic_load_explicit(&dir->u.dir.mount, memory_order_acquire) != NULL;
}

/* ---- the walk ---- */

/* rel (length *len) ends with a symlink that a ".." follows: rel loses the
 * link's name and the path still to resolve becomes "TARGET/.." + *p. The
 * target is resolved inside the mount (an absolute one gives EXDEV, as the
 * backends' RESOLVE_BENEATH rule). */
static int splice_link_dotdot(struct walk *w, struct fs_mount *m, char *rel, size_t *len, const char **p)
{
    if (++w->hops > SPINDLE_FS_SYMLOOP_MAX)
        return -SPINDLE_ELOOP;
    char *target = fs_malloc(SPINDLE_FS_PATH_MAX);
    if (target == NULL)
        return -SPINDLE_ENOMEM;
    int64_t tl = m->ops->readlink(m->ctx, rel, target, SPINDLE_FS_PATH_MAX - 1);
    int rc = 0;
    size_t rest_len = strlen(*p);
    if (tl <= 0)
        rc = tl < 0 ? (int)tl : -SPINDLE_ENOENT;
    else if (target[0] == '/')
        rc = -SPINDLE_EXDEV;
    else if ((size_t)tl + 3 + rest_len >= SPINDLE_FS_PATH_MAX)
        rc = -SPINDLE_ENAMETOOLONG;
    else if (w->buffer == NULL && (w->buffer = fs_malloc(SPINDLE_FS_PATH_MAX)) == NULL)
        rc = -SPINDLE_ENOMEM;
    if (rc == 0) {
        memmove(w->buffer + tl + 3, *p, rest_len + 1); /* *p may lie in the buffer */
        memcpy(w->buffer, target, (size_t)tl);
        memcpy(w->buffer + tl, "/..", 3);
        *p = w->buffer;
        size_t n = *len;
        while (n > 0 && rel[n - 1] != '/')
            n--;
        if (n > 0)
            n--;
        rel[n] = '\0';
        *len = n;
    }
    fs_free(target);
    return rc;
}

int mount_walk(struct walk *w, struct inode **curp, const char **rest, int how)
{
    struct inode *cur = *curp;
    struct fs_mount *m;
    const char *base = "";
    size_t len = 0;
    if (cur->type == INODE_REMOTE) {
        m = cur->u.remote.mount;
        base = cur->u.remote.rel;
        len = cur->u.remote.rel_len;
    } else {
        m = atomic_load_explicit(&cur->u.dir.mount, memory_order_acquire);
    }
    if (w->rel == NULL) {
        w->rel = fs_malloc(SPINDLE_FS_PATH_MAX);
        if (w->rel == NULL)
            return -SPINDLE_ENOMEM;
    }
    char *rel = w->rel;
    memcpy(rel, base, len);
    rel[len] = '\0';
    const char *p = *rest;
    enum last_type last = LAST_NORM;
    bool trailing = false;
    size_t name_off = 0, name_len = 0;
    for (;;) {
        const char *slashes = p;
        while (*p == '/')
            p++;
        if (*p == '\0') { /* nothing (more) to resolve: the mount's root or a dirfd */
            trailing = p != slashes;
            name_off = len;
            name_len = 0;
            break;
        }
        const char *name = p;
        while (*p != '\0' && *p != '/')
            p++;
        size_t n = (size_t)(p - name);
        if (n > SPINDLE_FS_NAME_MAX)
            return -SPINDLE_ENAMETOOLONG;
        const char *q = p;
        while (*q == '/')
            q++;
        bool is_last = *q == '\0';
        enum last_type kind = LAST_NORM;
        if (n == 1 && name[0] == '.')
            kind = LAST_DOT;
        else if (n == 2 && name[0] == '.' && name[1] == '.')
            kind = LAST_DOTDOT;
        if (is_last && (how & WALK_PARENT) && kind != LAST_NORM) {
            last = kind; /* not applied: the operation refuses it */
            trailing = q != p;
            break;
        }
        if (kind == LAST_DOT) {
            if (is_last) {
                last = LAST_DOT;
                trailing = true; /* "x/." must be a directory */
                break;
            }
            continue;
        }
        if (kind == LAST_DOTDOT) {
            if (len == 0) { /* above the mount's root: on to the mount point's parent */
                struct inode *parent = dir_parent_ref(m->point);
                inode_unref(cur);
                *curp = parent;
                *rest = q;
                if (*q == '\0') { /* the path ends there */
                    w->last = LAST_DOTDOT;
                    w->trailing_slash = true;
                    w->node = parent;
                }
                return MOUNT_WALK_ESCAPED;
            }
            /* Physically, as Linux: ".." after a symlink to a directory is the
             * target's parent, so look at what is being left (one backend stat). */
            struct spindle_stat st;
            int src = m->ops->stat(m->ctx, rel, SPINDLE_AT_SYMLINK_NOFOLLOW, &st);
            if (src < 0)
                return src; /* "missing/.." is ENOENT */
            if ((st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFLNK) {
                src = splice_link_dotdot(w, m, rel, &len, &p);
                if (src < 0)
                    return src;
                continue;
            }
            if ((st.mode & SPINDLE_S_IFMT) != SPINDLE_S_IFDIR)
                return -SPINDLE_ENOTDIR;
            while (len > 0 && rel[len - 1] != '/')
                len--;
            if (len > 0)
                len--;
            rel[len] = '\0';
            if (is_last) {
                last = LAST_DOTDOT;
                trailing = true;
                break;
            }
            continue;
        }
        if (len + 1 + n >= SPINDLE_FS_PATH_MAX)
            return -SPINDLE_ENAMETOOLONG;
        if (len > 0)
            rel[len++] = '/';
        name_off = len;
        name_len = n;
        memcpy(rel + len, name, n);
        len += n;
        rel[len] = '\0';
        if (is_last) {
            trailing = q != p;
            break;
        }
    }
    w->mount = m;
    w->rel_len = len;
    w->name = rel + name_off;
    w->name_len = name_len;
    w->last = last;
    w->trailing_slash = trailing;
    w->follow = (how & WALK_FOLLOW) || trailing;
    return 0;
}

/* ---- mounting ---- */

static int walk_node(const char *path, struct walk *w)
{
    memset(w, 0, sizeof *w);
    return path_walk(fs_root(), path, WALK_FOLLOW, w);
}

int spindle_fs_mount(const char *path, const struct spindle_mount_backend *ops, void *ctx)
{
    if (path == NULL || path[0] != '/' || ops == NULL)
        return -SPINDLE_EINVAL;
    size_t plen = strlen(path);
    if (plen >= SPINDLE_FS_PATH_MAX)
        return -SPINDLE_ENAMETOOLONG;
    char prefix[SPINDLE_FS_PATH_MAX];
    struct walk w;
    /* mkdir -p, never through a mount (that would create host directories) */
    for (size_t i = 1; i <= plen; i++) {
        if (i < plen && path[i] != '/')
            continue;
        memcpy(prefix, path, i);
        prefix[i] = '\0';
        int rc = walk_node(prefix, &w);
        bool mounted = rc == 0 && w.mount != NULL;
        walk_done(&w);
        if (mounted)
            return -SPINDLE_EBUSY;
        if (rc == -SPINDLE_ENOENT) {
            rc = spindle_fs_mkdirat(SPINDLE_AT_FDCWD, prefix, 0755);
            if (rc == -SPINDLE_EEXIST)
                rc = 0;
        }
        if (rc < 0)
            return rc;
    }
    int rc = walk_node(path, &w);
    if (rc < 0)
        return rc;
    struct inode *node = w.node;
    if (w.mount != NULL)
        rc = -SPINDLE_EBUSY;
    else if (node->type != INODE_DIR)
        rc = -SPINDLE_ENOTDIR;
    else if (node == fs_root())
        rc = -SPINDLE_EBUSY;
    if (rc < 0) {
        walk_done(&w);
        return rc;
    }
    pthread_mutex_lock(&mount_lock);
    struct fs_mount *m = NULL;
    if (mount_count >= SPINDLE_MOUNT_MAX) {
        rc = -SPINDLE_ENOSPC;
    } else if (atomic_load(&node->u.dir.mount) != NULL) {
        rc = -SPINDLE_EBUSY;
    } else {
        m = fs_calloc(1, sizeof *m);
        if (m == NULL || pthread_mutex_init(&m->table_lock, NULL) != 0) {
            fs_free(m);
            rc = -SPINDLE_ENOMEM;
        } else {
            m->id = mount_count;
            m->ops = ops;
            m->ctx = ctx;
            inode_ref(node);
            m->point = node;
            mounts[mount_count++] = m;
            atomic_store_explicit(&node->u.dir.mount, m, memory_order_release);
            rc = m->id;
        }
    }
    pthread_mutex_unlock(&mount_lock);
    walk_done(&w);
    return rc;
}

/* ---- shared remote inodes ---- */

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
    for (struct inode *x = m->table[ino % TABLE_SIZE]; x != NULL; x = x->u.remote.hash_next)
        if (x->u.remote.backend_ino == ino && try_ref(x))
            return x;
    return NULL;
}

static struct inode *remote_new(struct fs_mount *m, const struct spindle_stat *st, bool is_dir)
{
    struct inode *inode = inode_new(INODE_REMOTE, st->mode & 07777);
    if (inode == NULL)
        return NULL;
    memset(&inode->u.remote, 0, sizeof inode->u.remote);
    inode->u.remote.mount = m;
    inode->u.remote.backend_ino = st->ino;
    inode->u.remote.is_dir = is_dir;
    inode->size = st->size;
    inode->nlink = st->nlink;
    return inode;
}

/* The shared inode of the file just opened as `handle`, whose open reported
 * st; changes_before is m->changes sampled before that open. A size read
 * while another description's write was landing is stale (appends through a
 * new inode would overwrite those bytes), so it is read again. */
static int remote_file_get(struct fs_mount *m, uint64_t handle, struct spindle_stat *st, bool truncated,
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
        inode = remote_new(m, st, false);
        if (inode != NULL) {
            struct inode **slot = &m->table[st->ino % TABLE_SIZE];
            inode->u.remote.hash_next = *slot;
            *slot = inode;
        }
    }
    pthread_mutex_unlock(&m->table_lock);
    if (inode == NULL)
        return -SPINDLE_ENOMEM;
    if (found) { /* another description has it: refresh what the open told us */
        struct remote_data *r = &inode->u.remote;
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

void mount_remote_free(struct inode *inode)
{
    struct remote_data *r = &inode->u.remote;
    if (!r->is_dir) {
        struct fs_mount *m = r->mount;
        pthread_mutex_lock(&m->table_lock);
        for (struct inode **p = &m->table[r->backend_ino % TABLE_SIZE]; *p != NULL; p = &(*p)->u.remote.hash_next) {
            if (*p == inode) {
                *p = r->hash_next;
                break;
            }
        }
        pthread_mutex_unlock(&m->table_lock);
    }
    fs_free(r->wbuf);
    fs_free(r->rbuf);
    fs_free(r->rel);
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
    atomic_fetch_add(&m->changes, 1); /* after the bytes landed: see mount_open */
    if (done > 0)
        return (int64_t)done;
    return n < 0 ? n : -SPINDLE_EIO;
}

static int64_t pread_full(struct fs_mount *m, uint64_t handle, uint8_t *buf, size_t len, int64_t off)
{
    size_t done = 0;
    while (done < len) {
        int64_t n = m->ops->pread(m->ctx, handle, buf + done, len - done, off + (int64_t)done);
        if (n < 0)
            return done > 0 ? (int64_t)done : n;
        if (n == 0)
            break;
        done += (size_t)n;
    }
    return (int64_t)done;
}

/* Writes the dirty buffer out (caller holds the write lock). */
static int flush_locked(struct inode *inode)
{
    struct remote_data *r = &inode->u.remote;
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

static int take_werr(struct remote_data *r)
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

int mount_open(struct walk *w, int flags, uint32_t mode, struct inode **out, uint64_t *handle)
{
    struct fs_mount *m = w->mount;
    int access = flags & SPINDLE_O_ACCMODE;
    if ((flags & SPINDLE_O_CREAT) && (w->last != LAST_NORM || w->trailing_slash))
        return -SPINDLE_EISDIR;
    int bflags = flags & ~SPINDLE_O_APPEND; /* appends are placed here: offsets are explicit */
    if (w->trailing_slash || w->last != LAST_NORM)
        bflags |= SPINDLE_O_DIRECTORY;
    struct spindle_stat st;
    memset(&st, 0, sizeof st);
    uint_fast64_t changes_before = atomic_load(&m->changes);
    int rc = m->ops->open(m->ctx, w->rel, bflags, mode, handle, &st);
    if (rc < 0)
        return rc;
    bool is_dir = (st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR;
    struct inode *inode = NULL;
    if (is_dir && (access != SPINDLE_O_RDONLY || (flags & (SPINDLE_O_TRUNC | SPINDLE_O_CREAT))))
        rc = -SPINDLE_EISDIR;
    else if (!is_dir && (bflags & SPINDLE_O_DIRECTORY))
        rc = -SPINDLE_ENOTDIR;
    if (rc == 0 && is_dir) {
        inode = remote_new(m, &st, true);
        char *rel = fs_malloc(w->rel_len + 1);
        if (inode == NULL || rel == NULL) {
            fs_free(rel);
            if (inode)
                inode_unref(inode);
            inode = NULL;
            rc = -SPINDLE_ENOMEM;
        } else {
            memcpy(rel, w->rel, w->rel_len + 1);
            inode->u.remote.rel = rel;
            inode->u.remote.rel_len = w->rel_len;
        }
    } else if (rc == 0) {
        rc = remote_file_get(m, *handle, &st, (flags & SPINDLE_O_TRUNC) != 0, changes_before, &inode);
    }
    if (rc < 0) {
        m->ops->close(m->ctx, *handle);
        return rc;
    }
    *out = inode;
    return 0;
}

/* The description's last reference: write through, then close the handle. */
void mount_close_description(struct open_file *file)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    if (!r->is_dir && open_file_writable(file)) {
        inode_write_lock(inode);
        flush_locked(inode);
        inode_unlock(inode);
    }
    r->mount->ops->close(r->mount->ctx, file->handle);
}

/* close() of a writable fd: the data is in the backend when it returns. */
int mount_close_fd(struct open_file *file)
{
    struct inode *inode = file->inode;
    if (inode->u.remote.is_dir || !open_file_writable(file))
        return 0;
    inode_write_lock(inode);
    int rc = flush_locked(inode);
    int deferred = take_werr(&inode->u.remote);
    inode_unlock(inode);
    return rc < 0 ? rc : deferred;
}

/* ---- I/O on open files ---- */

/* A small read through the read-ahead cache (caller holds the write lock). */
static int64_t read_cached(struct inode *inode, uint64_t handle, uint8_t *dst, int64_t n, int64_t at)
{
    struct remote_data *r = &inode->u.remote;
    if (!(r->rlen > 0 && at >= r->roff && at + n <= r->roff + (int64_t)r->rlen)) {
        /* refill; the dirty buffer first, or the cache could hold stale bytes */
        int rc = r->wlen > 0 ? flush_locked(inode) : 0;
        if (rc < 0)
            return rc;
        r->rlen = 0;
        if (ensure_cap(&r->rbuf, &r->rcap, READ_AHEAD, READ_AHEAD, READ_AHEAD) == 0) {
            int64_t filled = pread_full(r->mount, handle, r->rbuf, READ_AHEAD, at);
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

int64_t remote_read(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t offset,
                    int64_t total)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    if (r->is_dir)
        return -SPINDLE_EISDIR;
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

int64_t remote_write(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t *offsetp,
                     int64_t total)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    struct fs_mount *m = r->mount;
    if (r->is_dir)
        return -SPINDLE_EISDIR;
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

static void fix_stat(struct fs_mount *m, struct spindle_stat *st) { st->dev = mount_dev(m); }

int remote_fstat(struct open_file *file, struct spindle_stat *st)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    struct fs_mount *m = r->mount;
    inode_write_lock(inode);
    int rc = r->is_dir ? 0 : flush_locked(inode);
    if (rc == 0)
        rc = m->ops->fstat(m->ctx, file->handle, st);
    if (rc == 0 && !r->is_dir)
        inode->size = st->size; /* also picks up growth by others */
    inode_unlock(inode);
    if (rc == 0)
        fix_stat(m, st);
    return rc;
}

/* Caller holds the inode's write lock. */
static int resize_locked(struct open_file *file, int64_t length)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    int rc = flush_locked(inode);
    if (rc == 0)
        rc = r->mount->ops->ftruncate(r->mount->ctx, file->handle, length);
    atomic_fetch_add(&r->mount->changes, 1); /* after the size changed: see remote_file_get */
    if (rc == 0)
        inode->size = length;
    r->rlen = 0;
    return rc;
}

int remote_ftruncate(struct open_file *file, int64_t length)
{
    inode_write_lock(file->inode);
    int rc = resize_locked(file, length);
    inode_unlock(file->inode);
    return rc;
}

int remote_fallocate(struct open_file *file, int64_t end)
{
    inode_write_lock(file->inode);
    int rc = end > file->inode->size ? resize_locked(file, end) : 0;
    inode_unlock(file->inode);
    return rc;
}

int remote_fsync(struct open_file *file, int datasync)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    int rc = 0;
    if (!r->is_dir) {
        inode_write_lock(inode);
        rc = flush_locked(inode);
        int deferred = take_werr(r);
        inode_unlock(inode);
        if (rc == 0)
            rc = deferred;
    }
    if (rc == 0)
        rc = r->mount->ops->fsync(r->mount->ctx, file->handle, datasync);
    return rc;
}

int remote_futimens(struct open_file *file, const struct spindle_timespec times[2])
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    inode_write_lock(inode);
    int rc = r->is_dir ? 0 : flush_locked(inode); /* a later flush would move mtime again */
    if (rc == 0)
        rc = r->mount->ops->futimens(r->mount->ctx, file->handle, times);
    inode_unlock(inode);
    return rc;
}

/* d_ino of a mount directory's "..": what stat of it reports (the tree's directory holding
 * the mount point for the mount's root; else the backend's parent directory). 0 if unknown. */
static uint64_t parent_ino(const struct remote_data *r)
{
    if (r->rel_len == 0) {
        struct inode *parent = dir_parent_ref(r->mount->point);
        uint64_t ino = parent->ino;
        inode_unref(parent);
        return ino;
    }
    char parent_rel[SPINDLE_FS_PATH_MAX];
    size_t cut = r->rel_len;
    while (cut > 0 && r->rel[cut - 1] != '/')
        cut--;
    cut = cut > 0 ? cut - 1 : 0; /* without the slash; "" is the mount's root */
    if (cut >= sizeof parent_rel)
        return 0;
    memcpy(parent_rel, r->rel, cut);
    parent_rel[cut] = '\0';
    struct spindle_stat st;
    return r->mount->ops->stat(r->mount->ctx, parent_rel, 0, &st) == 0 ? st.ino : 0;
}

int remote_readdir(struct open_file *file, uint64_t cookie, struct spindle_dirent *out, int max)
{
    struct inode *inode = file->inode;
    struct remote_data *r = &inode->u.remote;
    if (!r->is_dir)
        return -SPINDLE_ENOTDIR;
    int n = 0;
    const char *dots[2] = {".", ".."};
    for (uint64_t c = 1; c <= 2; c++) {
        if (cookie < c && n < max) {
            memset(&out[n], 0, sizeof out[n]);
            out[n].next_cookie = c;
            out[n].ino = c == 1 ? r->backend_ino : parent_ino(r);
            out[n].type = SPINDLE_DT_DIR;
            out[n].name_len = (uint16_t)c;
            memcpy(out[n].name, dots[c - 1], c + 1);
            n++;
        }
    }
    if (n < max) {
        int got = r->mount->ops->readdir(r->mount->ctx, file->handle, cookie < 3 ? 0 : cookie, out + n, max - n);
        if (got < 0)
            return n > 0 ? n : got;
        /* a directory removed while open lists nothing, not even "." and "..", as on Linux;
         * asked only of a listing that starts empty */
        struct spindle_stat st;
        if (got == 0 && cookie < 3 && r->mount->ops->fstat(r->mount->ctx, file->handle, &st) == 0 && st.nlink == 0)
            return 0;
        n += got;
    }
    return n;
}

/* ---- namespace operations on mounted paths ---- */

/* A file open here with buffered writes is flushed first, so that stat by
 * path sees its size and mtime as after a write on Linux. Returns true if
 * something was flushed (the caller stats again). */
static bool flush_if_open(struct fs_mount *m, const struct spindle_stat *st)
{
    if ((st->mode & SPINDLE_S_IFMT) != SPINDLE_S_IFREG)
        return false;
    pthread_mutex_lock(&m->table_lock);
    struct inode *inode = table_find(m, st->ino);
    pthread_mutex_unlock(&m->table_lock);
    if (inode == NULL)
        return false;
    inode_write_lock(inode);
    bool dirty = inode->u.remote.wlen > 0;
    if (dirty)
        flush_locked(inode);
    inode_unlock(inode);
    inode_unref(inode);
    return dirty;
}

int mount_stat(struct walk *w, struct spindle_stat *st)
{
    struct fs_mount *m = w->mount;
    int rc = m->ops->stat(m->ctx, w->rel, w->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW, st);
    if (rc < 0)
        return rc;
    if (w->trailing_slash && (st->mode & SPINDLE_S_IFMT) != SPINDLE_S_IFDIR)
        return -SPINDLE_ENOTDIR;
    if (flush_if_open(m, st)) {
        rc = m->ops->stat(m->ctx, w->rel, w->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW, st);
        if (rc < 0)
            return rc;
    }
    fix_stat(m, st);
    return 0;
}

int mount_utimens(struct walk *w, const struct spindle_timespec times[2], int flags)
{
    (void)flags; /* AT_SYMLINK_NOFOLLOW is already in w->follow */
    struct fs_mount *m = w->mount;
    return m->ops->utimens(m->ctx, w->rel, times, w->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW);
}

int mount_mkdir(struct walk *w, uint32_t mode)
{
    if (w->last != LAST_NORM || w->rel_len == 0)
        return -SPINDLE_EEXIST;
    return w->mount->ops->mkdir(w->mount->ctx, w->rel, mode);
}

static bool is_dir_at(struct fs_mount *m, const char *rel)
{
    struct spindle_stat st;
    return m->ops->stat(m->ctx, rel, SPINDLE_AT_SYMLINK_NOFOLLOW, &st) == 0 &&
           (st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR;
}

int mount_unlink(struct walk *w, bool rmdir)
{
    struct fs_mount *m = w->mount;
    if (w->last == LAST_DOT)
        return rmdir ? -SPINDLE_EINVAL : -SPINDLE_EISDIR;
    if (w->last == LAST_DOTDOT)
        return rmdir ? -SPINDLE_ENOTEMPTY : -SPINDLE_EISDIR;
    if (w->rel_len == 0)
        return rmdir ? -SPINDLE_EBUSY : -SPINDLE_EISDIR;
    if (!rmdir && w->trailing_slash)
        return is_dir_at(m, w->rel) ? -SPINDLE_EISDIR : -SPINDLE_ENOTDIR;
    return m->ops->unlink(m->ctx, w->rel, rmdir ? SPINDLE_AT_REMOVEDIR : 0);
}

int mount_rename(struct walk *from, struct walk *to)
{
    if (from->mount != to->mount)
        return -SPINDLE_EXDEV;
    struct fs_mount *m = from->mount;
    if (from->rel_len == 0 || to->rel_len == 0)
        return -SPINDLE_EBUSY;
    if ((from->trailing_slash || to->trailing_slash) && !is_dir_at(m, from->rel)) {
        struct spindle_stat st;
        int rc = m->ops->stat(m->ctx, from->rel, SPINDLE_AT_SYMLINK_NOFOLLOW, &st);
        return rc < 0 ? rc : -SPINDLE_ENOTDIR;
    }
    return m->ops->rename(m->ctx, from->rel, to->rel);
}

int mount_link(struct walk *from, struct walk *to, int flags)
{
    if (from->mount != to->mount)
        return -SPINDLE_EXDEV;
    struct fs_mount *m = from->mount;
    struct spindle_stat st;
    if (to->last != LAST_NORM || to->rel_len == 0)
        return -SPINDLE_EEXIST;
    if (from->trailing_slash) { /* Linux: the source must then be a directory (EPERM) */
        int rc = m->ops->stat(m->ctx, from->rel, from->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW, &st);
        if (rc < 0)
            return rc;
        return (st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR ? -SPINDLE_EPERM : -SPINDLE_ENOTDIR;
    }
    if (to->trailing_slash) /* EEXIST before ENOENT, as Linux */
        return m->ops->stat(m->ctx, to->rel, SPINDLE_AT_SYMLINK_NOFOLLOW, &st) == 0 ? -SPINDLE_EEXIST
                                                                                 : -SPINDLE_ENOENT;
    return m->ops->link(m->ctx, from->rel, to->rel, flags);
}

int mount_symlink(const char *target, struct walk *w)
{
    if (w->last != LAST_NORM || w->rel_len == 0)
        return -SPINDLE_EEXIST;
    if (w->trailing_slash)
        return -SPINDLE_ENOENT;
    return w->mount->ops->symlink(w->mount->ctx, target, w->rel);
}

int64_t mount_readlink(struct walk *w, char *buf, size_t size)
{
    if (w->rel_len == 0)
        return -SPINDLE_EINVAL;
    return w->mount->ops->readlink(w->mount->ctx, w->rel, buf, size);
}

/* ---- flushing everything ---- */

int spindle_fs_mount_flush_all(void)
{
    int first = 0;
    pthread_mutex_lock(&mount_lock);
    int count = mount_count;
    pthread_mutex_unlock(&mount_lock);
    for (int i = 0; i < count; i++) {
        struct fs_mount *m = mounts[i];
        for (int b = 0; b < TABLE_SIZE; b++) {
            for (;;) { /* one dirty inode at a time: the lock is a leaf */
                struct inode *dirty = NULL;
                pthread_mutex_lock(&m->table_lock);
                for (struct inode *x = m->table[b]; x != NULL && dirty == NULL; x = x->u.remote.hash_next) {
                    /* wlen read without the inode lock only to pick candidates;
                     * the flush below re-checks under it */
                    if (__atomic_load_n(&x->u.remote.wlen, __ATOMIC_RELAXED) > 0 && try_ref(x))
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
    }
    return first;
}

/* Normal exit (exit(), return from main) writes what is still buffered. */
__attribute__((destructor)) static void flush_at_exit(void) { spindle_fs_mount_flush_all(); }
