/* The path walk inside a mount (docs/MOUNTS.md, "Path walk"): path.c hands everything after a
 * mount point, or after a directory of a mount used as a dirfd, to mount_walk, which normalizes
 * it into a relative path for the backend. ".." is handled here: after a symlink to a directory
 * it goes to the target's parent, as Linux; at the mount's root it leaves the mount. */
#include "mount_internal.h"

#include <string.h>

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
    if (cur->type == INODE_REMOTE_DIR) {
        m = cur->u.remote_dir.mount;
        base = cur->u.remote_dir.rel;
        len = cur->u.remote_dir.rel_len;
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
