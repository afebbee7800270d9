/* rename: the operation that can hold up to four directory locks (both
 * parents, the moved directory, the replaced directory).
 * Deadlock freedom: all of them are taken together through a lock_set, in
 * increasing inode number; only a moved or replaced file, which has no
 * children, is locked after the set. Which locks are needed is only known after looking
 * the names up, so the set is grown and re-locked until the names resolve to
 * inodes already in it.
 * Loop freedom: a cross-directory rename holds fs_rename_mutex, so no other
 * rename changes parent pointers while it checks that a directory is not
 * being moved into its own subtree. */
#include "fs_ops.h"

#include <string.h>

static pthread_mutex_t fs_rename_mutex = PTHREAD_MUTEX_INITIALIZER;

/* true if a is b or one of b's ancestors; caller holds fs_rename_mutex */
static bool is_ancestor(struct inode *a, struct inode *b)
{
    for (struct inode *x = b; x != NULL; x = x->u.dir.parent)
        if (x == a)
            return true;
    return false;
}

struct rename_state {
    struct walk from, to;
    struct dir_entry *spare;  /* new entry, if the target name is free */
    struct inode *replaced;   /* reference to drop after unlocking */
    struct inode *old_parent; /* reference to drop after unlocking */
    struct inode *more[2];    /* referenced directories to add to the lock set */
};

#define RETRY_WITH_MORE_LOCKS 1

/* Both parents change (write and search); a directory that moves to another parent changes
 * too (its ".."), as Linux checks. */
static int rename_permission(struct inode *odir, struct inode *ndir, struct inode *moved_dir)
{
    int rc = fs_permission(odir, FS_MAY_WRITE | FS_MAY_EXEC);
    if (rc == 0 && ndir != odir)
        rc = fs_permission(ndir, FS_MAY_WRITE | FS_MAY_EXEC);
    if (rc == 0 && moved_dir != NULL && ndir != odir)
        rc = fs_permission(moved_dir, FS_MAY_WRITE);
    return rc;
}

/* Called with every directory of `locks` write-locked. */
static int rename_locked(struct rename_state *s, bool cross, struct lock_set *locks)
{
    struct inode *odir = s->from.dir, *ndir = s->to.dir;
    if (odir->u.dir.dead || ndir->u.dir.dead)
        return -SPINDLE_ENOENT;
    struct dir_entry *se = dir_find(&odir->u.dir, s->from.name, s->from.name_len);
    if (se == NULL)
        return -SPINDLE_ENOENT;
    struct inode *src = se->inode;
    bool src_dir = src->type == INODE_DIR;
    if (mount_is_point(src))
        return -SPINDLE_EBUSY;
    if ((s->from.trailing_slash || s->to.trailing_slash) && !src_dir)
        return -SPINDLE_ENOTDIR;
    /* Checks in Linux's order: subtree rules first, then types. */
    if (src_dir && cross && is_ancestor(src, ndir))
        return -SPINDLE_EINVAL; /* into its own subtree */
    struct dir_entry *te = dir_find(&ndir->u.dir, s->to.name, s->to.name_len);
    struct inode *tgt = te ? te->inode : NULL;
    bool tgt_dir = tgt && tgt->type == INODE_DIR;
    if (tgt && mount_is_point(tgt))
        return -SPINDLE_EBUSY;
    if (tgt_dir && cross && is_ancestor(tgt, odir))
        return -SPINDLE_ENOTEMPTY; /* over an ancestor of the source */
    if (tgt == src)
        return 0; /* same file: POSIX says do nothing */
    int rc = rename_permission(odir, ndir, src_dir ? src : NULL);
    if (rc < 0)
        return rc;
    if (src_dir && tgt && !tgt_dir)
        return -SPINDLE_ENOTDIR;
    if (!src_dir && tgt_dir)
        return -SPINDLE_EISDIR;
    /* A moved directory is locked through the set even when only its ctime
     * changes: locking it innermost, after the set, would take a directory
     * lock out of inode-number order and could deadlock with a rename into
     * that directory. */
    if ((src_dir && !lock_set_has(locks, src)) || (tgt_dir && !lock_set_has(locks, tgt))) {
        /* added by the caller once everything is unlocked */
        if (src_dir) {
            inode_ref(src);
            s->more[0] = src;
        }
        if (tgt_dir) {
            inode_ref(tgt);
            s->more[1] = tgt;
        }
        return RETRY_WITH_MORE_LOCKS;
    }
    if (tgt_dir && tgt->u.dir.entry_count > 0)
        return -SPINDLE_ENOTEMPTY;
    if (te == NULL) { /* a new name needs memory; replacing one does not */
        if (s->spare == NULL)
            s->spare = dir_entry_new(s->to.name, s->to.name_len, NULL);
        if (s->spare == NULL || dir_reserve(&ndir->u.dir) < 0)
            return -SPINDLE_ENOSPC;
    }

    /* Commit: nothing below can fail. */
    int64_t now = fs_now_ns();
    if (te) {
        te->inode = src; /* lookups see the old or the new file, never neither */
        s->replaced = tgt;
    } else {
        s->spare->inode = src;
        dir_insert(&ndir->u.dir, s->spare);
        s->spare = NULL;
    }
    dir_remove(&odir->u.dir, se); /* its reference now belongs to the new entry */
    if (tgt_dir) {
        tgt->u.dir.dead = true;
        tgt->nlink = 0;
        tgt->ctime_ns = now;
        ndir->nlink--;
    }
    if (src_dir && cross) { /* its parent pointer changes */
        inode_ref(ndir);
        s->old_parent = src->u.dir.parent;
        src->u.dir.parent = ndir;
        odir->nlink--;
        ndir->nlink++;
    }
    if (src_dir) {
        src->ctime_ns = now;
    } else {
        inode_write_lock(src); /* the one non-directory lock, innermost */
        src->ctime_ns = now;
        inode_unlock(src);
    }
    if (tgt && !tgt_dir) {
        inode_write_lock(tgt);
        tgt->nlink--;
        tgt->ctime_ns = now;
        inode_unlock(tgt);
    }
    odir->mtime_ns = odir->ctime_ns = now;
    ndir->mtime_ns = ndir->ctime_ns = now;
    return 0;
}

int spindle_fs_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
    struct rename_state s;
    memset(&s, 0, sizeof s);
    int rc = walk_parent_at(olddirfd, oldpath, &s.from);
    if (rc < 0)
        return rc;
    rc = walk_parent_at(newdirfd, newpath, &s.to);
    if (rc < 0) {
        walk_done(&s.from);
        return rc;
    }
    if (s.from.last != LAST_NORM || s.to.last != LAST_NORM) {
        rc = -SPINDLE_EBUSY;
        goto out;
    }
    if (s.from.mount || s.to.mount) { /* across mounts or to/from the memory tree: EXDEV */
        rc = s.from.mount && s.to.mount ? mount_rename(&s.from, &s.to) : -SPINDLE_EXDEV;
        goto out;
    }
    bool cross = s.from.dir != s.to.dir;
    struct lock_set locks = {{NULL}, 0};
    lock_set_add(&locks, s.from.dir);
    lock_set_add(&locks, s.to.dir);
    if (cross)
        pthread_mutex_lock(&fs_rename_mutex);
    for (;;) {
        lock_set_lock(&locks);
        rc = rename_locked(&s, cross, &locks);
        lock_set_unlock(&locks);
        if (rc != RETRY_WITH_MORE_LOCKS)
            break;
        /* rebuilt, not grown: at most both parents + source + target, even
         * if the names meanwhile resolve to other inodes */
        lock_set_release(&locks);
        lock_set_add(&locks, s.from.dir);
        lock_set_add(&locks, s.to.dir);
        for (int i = 0; i < 2; i++) {
            if (s.more[i]) {
                lock_set_add(&locks, s.more[i]);
                inode_unref(s.more[i]);
                s.more[i] = NULL;
            }
        }
    }
    if (cross)
        pthread_mutex_unlock(&fs_rename_mutex);
    lock_set_release(&locks);
out:
    fs_free(s.spare);
    if (s.replaced)
        inode_unref(s.replaced);
    if (s.old_parent)
        inode_unref(s.old_parent);
    walk_done(&s.to);
    walk_done(&s.from);
    return rc;
}
