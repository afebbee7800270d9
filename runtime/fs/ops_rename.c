/* rename: the only operation holding two directory locks.
 * Deadlock freedom: a cross-directory rename first takes fs_rename_mutex, so
 * the tree's shape (parent pointers) cannot change while it decides the
 * order: an ancestor directory before its descendant, otherwise by inode
 * number. Every other operation only locks parent before child, so no cycle
 * can form (see docs/FILESYSTEM.md). */
#include "fs_internal.h"

#include <string.h>

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
    struct dir_entry *spare;    /* new entry, if the target name is free */
    struct inode *replaced;     /* reference to drop after unlocking */
    struct inode *old_parent;   /* reference to drop after unlocking */
};

static int rename_locked(struct rename_state *s, bool cross)
{
    struct inode *odir = s->from.dir, *ndir = s->to.dir;
    if (odir->u.dir.dead || ndir->u.dir.dead)
        return -SPINDLE_ENOENT;
    struct dir_entry *se = dir_find(&odir->u.dir, s->from.name, s->from.name_len);
    if (se == NULL)
        return -SPINDLE_ENOENT;
    struct inode *src = se->inode;
    bool src_dir = src->type == INODE_DIR;
    if ((s->from.trailing_slash || s->to.trailing_slash) && !src_dir)
        return -SPINDLE_ENOTDIR;
    struct dir_entry *te = dir_find(&ndir->u.dir, s->to.name, s->to.name_len);
    struct inode *tgt = te ? te->inode : NULL;
    if (tgt == src)
        return 0; /* same file: POSIX says do nothing */
    if (src_dir) {
        if (tgt && tgt->type != INODE_DIR)
            return -SPINDLE_ENOTDIR;
        if (cross && is_ancestor(src, ndir))
            return -SPINDLE_EINVAL; /* into its own subtree */
    } else if (tgt && tgt->type == INODE_DIR) {
        return -SPINDLE_EISDIR;
    }
    bool tgt_dir = tgt && tgt->type == INODE_DIR;
    if (tgt_dir) {
        if (cross && is_ancestor(tgt, odir))
            return -SPINDLE_ENOTEMPTY;
        inode_write_lock(tgt); /* child of ndir, after both parents */
        if (tgt->u.dir.entry_count > 0) {
            inode_unlock(tgt);
            return -SPINDLE_ENOTEMPTY;
        }
    }
    if (te == NULL && dir_reserve(&ndir->u.dir) < 0) {
        if (tgt_dir)
            inode_unlock(tgt);
        return -SPINDLE_ENOSPC;
    }

    /* Commit: nothing below can fail. */
    int64_t now = fs_now_ns();
    if (te) {
        te->inode = src; /* the replacement is atomic for lookups */
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
        inode_unlock(tgt);
        ndir->nlink--;
    }
    inode_write_lock(src);
    if (src_dir && cross) {
        inode_ref(ndir);
        s->old_parent = src->u.dir.parent;
        src->u.dir.parent = ndir;
        odir->nlink--;
        ndir->nlink++;
    }
    src->ctime_ns = now;
    inode_unlock(src);
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
    s.spare = dir_entry_new(s.to.name, s.to.name_len, NULL);
    if (s.spare == NULL) {
        rc = -SPINDLE_ENOSPC;
        goto out;
    }
    struct inode *odir = s.from.dir, *ndir = s.to.dir;
    if (odir == ndir) {
        inode_write_lock(odir);
        rc = rename_locked(&s, false);
        inode_unlock(odir);
    } else {
        pthread_mutex_lock(&fs_rename_mutex);
        struct inode *first = odir, *second = ndir;
        if (is_ancestor(ndir, odir) || (!is_ancestor(odir, ndir) && ndir->ino < odir->ino)) {
            first = ndir;
            second = odir;
        }
        inode_write_lock(first);
        inode_write_lock(second);
        rc = rename_locked(&s, true);
        inode_unlock(second);
        inode_unlock(first);
        pthread_mutex_unlock(&fs_rename_mutex);
    }
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
