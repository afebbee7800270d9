/* mkdir, unlink/rmdir, link, symlink, readlink: operations that add or
 * remove one directory entry. Each write-locks the parent directory, then at
 * most the child (a directory child only after its parent, per lock order). */
#include "fs_ops.h"

#include <string.h>

int walk_parent_at(int dirfd, const char *path, struct walk *w)
{
    int rc = path_walk_at(dirfd, path, WALK_PARENT, w);
    if (rc == 0 && w->dir != NULL && w->dir->u.dir.listing_lookup && w->last == LAST_NORM) {
        walk_done(w); /* /proc/self/fd lists open fds; names cannot be made or removed */
        return -SPINDLE_EPERM;
    }
    return rc;
}

/* Inserts a new inode under dir (write-locked, alive, name absent). */
static int add_entry(struct inode *dir, const struct walk *w, struct inode *child)
{
    struct dir_entry *entry = dir_entry_new(w->name, w->name_len, child);
    if (entry == NULL || dir_reserve(&dir->u.dir) < 0) {
        fs_free(entry);
        return -SPINDLE_ENOSPC;
    }
    dir_insert(&dir->u.dir, entry);
    dir->mtime_ns = dir->ctime_ns = fs_now_ns();
    return 0;
}

/* Locks the parent for adding w->name: 0 with the lock held, or an error
 * without it. */
static int lock_for_create(const struct walk *w)
{
    if (w->last != LAST_NORM)
        return -SPINDLE_EEXIST;
    inode_write_lock(w->dir);
    int rc = 0;
    if (w->dir->u.dir.dead)
        rc = -SPINDLE_ENOENT;
    else if (dir_find(&w->dir->u.dir, w->name, w->name_len))
        rc = -SPINDLE_EEXIST;
    else
        rc = fs_permission(w->dir, FS_MAY_WRITE | FS_MAY_EXEC);
    if (rc < 0)
        inode_unlock(w->dir);
    return rc;
}

int spindle_fs_mkdirat(int dirfd, const char *path, uint32_t mode)
{
    struct walk w;
    int rc = walk_parent_at(dirfd, path, &w);
    if (rc < 0)
        return rc;
    if (w.mount) {
        rc = mount_mkdir(&w, mode);
        walk_done(&w);
        return rc;
    }
    rc = lock_for_create(&w);
    if (rc == 0) {
        struct inode *dir = w.dir;
        struct inode *child = inode_new(INODE_DIR, &dir_ops, mode);
        if (child == NULL || dir_init(&child->u.dir, NULL) < 0) {
            if (child)
                inode_unref(child);
            rc = -SPINDLE_ENOSPC;
        } else {
            child->nlink = 2;
            inode_ref(dir);
            child->u.dir.parent = dir;
            rc = add_entry(dir, &w, child);
            if (rc == 0)
                dir->nlink++;
            else
                inode_unref(child);
        }
        inode_unlock(dir);
    }
    walk_done(&w);
    return rc;
}

/* Takes the entry out; the caller drops the entry's reference in *released after it
 * unlocks dir, so freeing a big file's data does not hold up the rest of the directory. */
/* now: read before dir was locked (dir_touch) */
static int remove_file(struct inode *dir, const struct walk *w, int64_t now, struct inode **released)
{
    struct dir_entry *e = dir_find(&dir->u.dir, w->name, w->name_len);
    if (e == NULL)
        return -SPINDLE_ENOENT;
    int rc = fs_permission(dir, FS_MAY_WRITE | FS_MAY_EXEC);
    if (rc < 0)
        return rc;
    struct inode *child = e->inode;
    if (child->type == INODE_DIR)
        return -SPINDLE_EISDIR;
    if (w->trailing_slash)
        return -SPINDLE_ENOTDIR;
    dir_remove(&dir->u.dir, e);
    dir_touch(dir, now);
    inode_write_lock(child);
    child->nlink--;
    if (child->ctime_ns < now) /* a write locked after our clock reading keeps its later time */
        child->ctime_ns = now;
    inode_unlock(child);
    *released = child; /* the entry's reference; open files keep theirs */
    return 0;
}

/* rmdir needs the parent and the child locked together: through a lock_set
 * (inode-number order), re-checking the name after re-locking. */
static int remove_dir(struct inode *dir, const struct walk *w)
{
    struct lock_set locks = {{NULL}, 0};
    lock_set_add(&locks, dir);
    int rc;
    for (;;) {
        lock_set_lock(&locks);
        struct dir_entry *e = dir->u.dir.dead ? NULL : dir_find(&dir->u.dir, w->name, w->name_len);
        struct inode *child = e ? e->inode : NULL;
        rc = child == NULL ? -SPINDLE_ENOENT : fs_permission(dir, FS_MAY_WRITE | FS_MAY_EXEC);
        if (rc < 0) {
            /* missing, or the parent may not change */
        } else if (child->type != INODE_DIR) {
            rc = -SPINDLE_ENOTDIR;
        } else if (mount_is_point(child)) {
            rc = -SPINDLE_EBUSY;
        } else if (!lock_set_has(&locks, child)) {
            inode_ref(child); /* keeps it alive once the parent is unlocked */
            lock_set_unlock(&locks);
            /* rebuilt, not grown: the name may meanwhile name another child */
            lock_set_release(&locks);
            lock_set_add(&locks, dir);
            lock_set_add(&locks, child);
            inode_unref(child);
            continue;
        } else if (child->u.dir.entry_count > 0) {
            rc = -SPINDLE_ENOTEMPTY;
        } else {
            int64_t now = fs_now_ns();
            child->u.dir.dead = true;
            child->nlink = 0;
            child->ctime_ns = now;
            dir_remove(&dir->u.dir, e);
            dir->nlink--;
            dir->mtime_ns = dir->ctime_ns = now;
            inode_unref(child); /* the entry's reference; the set still holds one */
            rc = 0;
        }
        lock_set_unlock(&locks);
        break;
    }
    lock_set_release(&locks);
    return rc;
}

int spindle_fs_unlinkat(int dirfd, const char *path, int flags)
{
    if (flags & ~SPINDLE_AT_REMOVEDIR)
        return -SPINDLE_EINVAL;
    bool rmdir = flags & SPINDLE_AT_REMOVEDIR;
    struct walk w;
    int rc = walk_parent_at(dirfd, path, &w);
    if (rc < 0)
        return rc;
    if (w.mount) {
        rc = mount_unlink(&w, rmdir);
        walk_done(&w);
        return rc;
    }
    switch (w.last) {
    case LAST_DOT:
        rc = rmdir ? -SPINDLE_EINVAL : -SPINDLE_EISDIR;
        break;
    case LAST_DOTDOT:
        rc = rmdir ? -SPINDLE_ENOTEMPTY : -SPINDLE_EISDIR;
        break;
    case LAST_ROOT:
        rc = rmdir ? -SPINDLE_EBUSY : -SPINDLE_EISDIR;
        break;
    case LAST_NORM:
        if (rmdir) {
            rc = remove_dir(w.dir, &w);
            break;
        }
        struct inode *released = NULL;
        int64_t now = fs_now_ns(); /* before the lock: others adding or removing names wait for it */
        inode_write_lock(w.dir);
        rc = w.dir->u.dir.dead ? -SPINDLE_ENOENT : remove_file(w.dir, &w, now, &released);
        inode_unlock(w.dir);
        if (released)
            inode_unref(released);
        break;
    }
    walk_done(&w);
    return rc;
}

int spindle_fs_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
    if (flags & ~SPINDLE_AT_SYMLINK_FOLLOW)
        return -SPINDLE_EINVAL;
    struct walk old;
    int rc = path_walk_at(olddirfd, oldpath, (flags & SPINDLE_AT_SYMLINK_FOLLOW) ? WALK_FOLLOW : 0, &old);
    if (rc < 0)
        return rc;
    struct inode *target = old.node;
    struct walk w;
    rc = walk_parent_at(newdirfd, newpath, &w);
    if (rc == 0 && (old.mount || w.mount)) {
        rc = old.mount && w.mount ? mount_link(&old, &w, flags) : -SPINDLE_EXDEV;
        walk_done(&w);
    } else if (rc == 0) {
        rc = lock_for_create(&w); /* EEXIST comes before EPERM, as on Linux */
        if (rc == 0) {
            if (w.trailing_slash) {
                rc = -SPINDLE_ENOENT;
            } else if (target->type == INODE_DIR) {
                rc = -SPINDLE_EPERM;
            } else {
                inode_write_lock(target);
                if (target->nlink == 0) { /* already unlinked everywhere */
                    rc = -SPINDLE_ENOENT;
                } else {
                    inode_ref(target);
                    rc = add_entry(w.dir, &w, target);
                    if (rc == 0) {
                        target->nlink++;
                        target->ctime_ns = w.dir->mtime_ns;
                    } else {
                        atomic_fetch_sub(&target->refs, 1); /* cannot be the last */
                    }
                }
                inode_unlock(target);
            }
            inode_unlock(w.dir);
        }
        walk_done(&w);
    }
    walk_done(&old);
    return rc;
}

int spindle_fs_symlinkat(const char *target, int dirfd, const char *linkpath)
{
    size_t len = strlen(target);
    if (len == 0)
        return -SPINDLE_ENOENT;
    if (len >= SPINDLE_FS_PATH_MAX)
        return -SPINDLE_ENAMETOOLONG;
    struct walk w;
    int rc = walk_parent_at(dirfd, linkpath, &w);
    if (rc < 0)
        return rc;
    if (w.mount) {
        rc = mount_symlink(target, &w);
        walk_done(&w);
        return rc;
    }
    rc = lock_for_create(&w);
    if (rc == 0 && w.trailing_slash) {
        inode_unlock(w.dir);
        rc = -SPINDLE_ENOENT;
    }
    if (rc == 0) {
        struct inode *link = NULL;
        char *copy = fs_malloc(len + 1);
        if (copy)
            link = inode_new(INODE_SYMLINK, &symlink_ops, 0777);
        if (link == NULL) {
            fs_free(copy);
            rc = -SPINDLE_ENOSPC;
        } else {
            memcpy(copy, target, len + 1);
            link->u.symlink.target = copy;
            link->u.symlink.len = len;
            link->nlink = 1;
            rc = add_entry(w.dir, &w, link);
            if (rc < 0)
                inode_unref(link);
        }
        inode_unlock(w.dir);
    }
    walk_done(&w);
    return rc;
}

int64_t spindle_fs_readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
    if (size == 0)
        return -SPINDLE_EINVAL;
    struct walk w;
    int rc = path_walk_at(dirfd, path, 0, &w);
    if (rc < 0)
        return rc;
    if (w.mount) {
        int64_t got = mount_readlink(&w, buf, size);
        walk_done(&w);
        return got;
    }
    int64_t n;
    struct inode *link = w.node;
    if (link->type != INODE_SYMLINK) {
        n = -SPINDLE_EINVAL;
    } else {
        n = (int64_t)(link->u.symlink.len < size ? link->u.symlink.len : size);
        memcpy(buf, link->u.symlink.target, (size_t)n);
        inode_read_lock(link);
        inode_touch_atime(link);
        inode_unlock(link);
    }
    walk_done(&w);
    return n;
}
