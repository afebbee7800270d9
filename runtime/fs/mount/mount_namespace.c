/* The calls on a path that ended inside a mount (w->mount set by mount_walk): each is one
 * or two backend calls on the normalized relative path, with Linux's errno choices for what
 * a backend is not asked (".", "..", the mount's root, trailing slashes). */
#include "mount_internal.h"

#include <string.h>

/* The backend opens (or creates); a file gets the shared inode of its open copies, a directory
 * an inode of its own. */
int mount_open(struct walk *w, int flags, uint32_t mode, struct inode **out, uint64_t *handle)
{
    struct fs_mount *m = w->mount;
    int access = flags & SPINDLE_O_ACCMODE;
    if ((flags & SPINDLE_O_CREAT) && (w->last != LAST_NORM || w->trailing_slash))
        return -SPINDLE_EISDIR;
    int checked = mount_check_open(w, flags);
    if (checked < 0)
        return checked;
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
    else
        rc = mount_check_opened(w, flags, st.mode);
    if (rc == 0 && is_dir) {
        inode = remote_dir_new(m, &st, w->rel, w->rel_len);
        if (inode == NULL)
            rc = -SPINDLE_ENOMEM;
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

int mount_stat(struct walk *w, struct spindle_stat *st)
{
    struct fs_mount *m = w->mount;
    int rc = mount_check_search(w);
    if (rc < 0)
        return rc;
    rc = m->ops->stat(m->ctx, w->rel, w->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW, st);
    if (rc < 0)
        return rc;
    if (w->trailing_slash && (st->mode & SPINDLE_S_IFMT) != SPINDLE_S_IFDIR)
        return -SPINDLE_ENOTDIR;
    mount_fix_stat(m, st);
    return 0;
}

int mount_utimens(struct walk *w, const struct spindle_timespec times[2], int flags)
{
    (void)flags; /* AT_SYMLINK_NOFOLLOW is already in w->follow */
    struct fs_mount *m = w->mount;
    int rc = mount_check_search(w);
    if (rc < 0)
        return rc;
    return m->ops->utimens(m->ctx, w->rel, times, w->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW);
}

int mount_chmod(struct walk *w, uint32_t mode)
{
    struct fs_mount *m = w->mount;
    if (m->ops->chmod == NULL)
        return -SPINDLE_EPERM;
    int rc = mount_check_search(w);
    if (rc < 0)
        return rc;
    rc = m->ops->chmod(m->ctx, w->rel, mode, w->follow ? 0 : SPINDLE_AT_SYMLINK_NOFOLLOW);
    mount_modes_changed(m);
    return rc;
}

int mount_mkdir(struct walk *w, uint32_t mode)
{
    if (w->last != LAST_NORM || w->rel_len == 0)
        return -SPINDLE_EEXIST;
    int rc = mount_check_names_change(w, NAME_ADDED);
    return rc < 0 ? rc : w->mount->ops->mkdir(w->mount->ctx, w->rel, mode);
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
    int rc = mount_check_names_change(w, NAME_REMOVED);
    if (rc < 0)
        return rc;
    rc = m->ops->unlink(m->ctx, w->rel, rmdir ? SPINDLE_AT_REMOVEDIR : 0);
    if (rmdir) /* (a file's unlink leaves every directory chain as it was) */
        mount_modes_changed(m);
    return rc;
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
    int rc = mount_check_names_change(from, NAME_REMOVED);
    if (rc == 0)
        rc = mount_check_names_change(to, NAME_REPLACED);
    if (rc == 0)
        rc = mount_check_moved_dir(from, to);
    if (rc < 0)
        return rc;
    /* only a directory's rename changes a directory chain, so the searchable chain that
     * mount_permission.c remembers (only where modes are checked) survives a file's: a loop
     * of renames in one directory then stats nothing above it */
    bool dir = !m->check_modes || is_dir_at(m, from->rel);
    rc = m->ops->rename(m->ctx, from->rel, to->rel);
    if (dir)
        mount_modes_changed(m);
    return rc;
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
    int rc = mount_check_search(from);
    if (rc == 0)
        rc = mount_check_names_change(to, NAME_ADDED);
    if (rc < 0)
        return rc;
    return m->ops->link(m->ctx, from->rel, to->rel, flags);
}

int mount_symlink(const char *target, struct walk *w)
{
    if (w->last != LAST_NORM || w->rel_len == 0)
        return -SPINDLE_EEXIST;
    if (w->trailing_slash)
        return -SPINDLE_ENOENT;
    int rc = mount_check_names_change(w, NAME_ADDED);
    if (rc < 0)
        return rc;
    return w->mount->ops->symlink(w->mount->ctx, target, w->rel);
}

int64_t mount_readlink(struct walk *w, char *buf, size_t size)
{
    if (w->rel_len == 0)
        return -SPINDLE_EINVAL;
    int rc = mount_check_search(w);
    if (rc < 0)
        return rc;
    return w->mount->ops->readlink(w->mount->ctx, w->rel, buf, size);
}
