/* Path resolution: `.`, `..` (never above the root), symlinks (at most
 * SPINDLE_FS_SYMLOOP_MAX), Linux's errno choices. The walk holds references,
 * not locks: one directory lock at a time, only while looking up a name.
 * Most walks (plain names through directories no one is changing) first go
 * without locks or references (walk_lock_free), so threads opening their own
 * files in one directory share no cache line but that directory's, and only
 * when they create or remove a name in it. */
#include "fs_core.h"

#include <string.h>

static struct inode *root;

struct inode *fs_root(void) { return root; }

void path_set_root(struct inode *dir) { root = dir; }

struct inode *dir_parent_ref(struct inode *dir)
{
    inode_read_lock(dir);
    struct inode *parent = dir->u.dir.parent ? dir->u.dir.parent : dir;
    inode_ref(parent);
    inode_unlock(dir);
    return parent;
}

static int lookup_child(struct inode *dir, const char *name, size_t len, struct inode **out)
{
    if (dir->u.dir.listing_lookup) /* /proc/self/fd: names are open fds */
        return dir->u.dir.listing_lookup(name, len, out);
    int rc = 0;
    inode_read_lock(dir);
    if (dir->u.dir.dead) {
        rc = -SPINDLE_ENOENT;
    } else {
        struct dir_entry *e = dir_find(&dir->u.dir, name, len);
        if (e == NULL) {
            rc = -SPINDLE_ENOENT;
        } else {
            inode_ref(e->inode);
            *out = e->inode;
        }
    }
    inode_unlock(dir);
    return rc;
}

/* The path still to resolve becomes the symlink's target followed by `rest`
 * (what came after the symlink's name). The buffer is allocated only here, so
 * paths without symlinks need no memory: unlink must work when memory is
 * full, or space could never be given back. */
static int splice_symlink(struct walk *w, struct inode *link, const char *rest)
{
    size_t target_len = link->u.symlink.len;
    size_t rest_len = strlen(rest);
    if (target_len + rest_len >= SPINDLE_FS_PATH_MAX)
        return -SPINDLE_ENAMETOOLONG;
    if (w->buffer == NULL) {
        w->buffer = fs_malloc(SPINDLE_FS_PATH_MAX);
        if (w->buffer == NULL)
            return -SPINDLE_ENOMEM;
    }
    memmove(w->buffer + target_len, rest, rest_len + 1); /* rest may lie in buffer */
    memcpy(w->buffer, link->u.symlink.target, target_len);
    return 0;
}

/* Hands the rest of the path to the mounts' walk (lent: fs_mount_calls). Returns 0 or -errno when the walk
 * is over (cur released), or 1 to go on in the memory tree from *cur, *p. */
static int enter_mount(struct walk *w, struct inode **cur, const char **p, int how)
{
    int rc = atomic_load_explicit(&fs_mount_calls, memory_order_acquire)->walk(w, cur, p, how);
    if (rc == MOUNT_WALK_ESCAPED) {
        if (w->node != NULL || w->dir != NULL)
            return 0; /* the path ended with ".." at the mount's root */
        return 1;
    }
    inode_unref(*cur);
    if (rc < 0) {
        fs_free(w->buffer);
        w->buffer = NULL;
        fs_free(w->rel);
        w->rel = NULL;
        w->mount = NULL;
    }
    return rc;
}

#define WALK_TAKE_LOCKS 1

/* Sets the result of a walk that ends at dir (WALK_PARENT) or node, taking its reference;
 * false if the inode is being freed. */
static bool walk_result(struct walk *w, struct inode *inode, bool parent)
{
    if (!inode_ref_if_live(inode))
        return false;
    if (parent)
        w->dir = inode;
    else
        w->node = inode;
    return true;
}

/* The walk through plain names of directories nobody is changing, writing nothing shared:
 * the thread's reader slot holds one directory at a time, moving to the child found in it
 * (reader_slots.c: a directory's writer and an inode's last unref wait for the slot), and only
 * the result gets a reference. Anything else ("..", symlinks, mounts, /proc/self/fd, a missing
 * name, a directory being changed) answers WALK_TAKE_LOCKS, with w untouched: the locked walk
 * then does it all, errors included. */
static int walk_lock_free(struct inode *start, const char *path, int how, struct walk *w)
{
    struct reader_slot *slot = reader_slot_mine();
    if (slot == NULL)
        return WALK_TAKE_LOCKS;
    struct inode *cur = *path == '/' ? fs_root() : start;
    const char *p = path;
    while (*p == '/')
        p++;
    int rc = WALK_TAKE_LOCKS;
    bool held = *p != '\0' && reader_slot_hold_inode(slot, cur);
    while (held) {
        if (cur->type != INODE_DIR || cur->u.dir.dead || cur->u.dir.listing_lookup ||
            inode_is_mount_entry(cur))
            break;
        const char *name = p;
        while (*p != '\0' && *p != '/')
            p++;
        size_t len = (size_t)(p - name);
        const char *after = p;
        while (*p == '/')
            p++;
        bool is_last = *p == '\0';
        bool trailing = is_last && after != p;
        bool dot = len == 1 && name[0] == '.';
        if (len > SPINDLE_FS_NAME_MAX || (len == 2 && name[0] == '.' && name[1] == '.'))
            break;
        if (is_last && (how & WALK_PARENT)) {
            /* the operation checks the parent itself, after the name's existence (Linux's order) */
            if (!dot && walk_result(w, cur, true)) {
                w->name = name;
                w->name_len = len;
                w->last = LAST_NORM;
                w->trailing_slash = trailing;
                rc = 0;
            }
            break;
        }
        if (fs_permission(cur, FS_MAY_EXEC) < 0)
            break; /* the locked walk gives the EACCES */
        struct inode *next = cur;
        if (!dot) {
            struct dir_entry *e = dir_find(&cur->u.dir, name, len);
            if (e == NULL)
                break;
            next = e->inode; /* alive: the entry holds it while the slot holds cur */
        }
        if (next->type == INODE_SYMLINK)
            break;
        held = reader_slot_hold_inode(slot, next); /* the slot moves from cur to next */
        cur = next;
        if (held && is_last) {
            bool usable = !(trailing && cur->type != INODE_DIR) && !inode_is_mount_entry(cur);
            if (usable && walk_result(w, cur, false)) {
                w->last = dot ? LAST_DOT : LAST_NORM;
                w->trailing_slash = trailing;
                rc = 0;
            }
            break;
        }
    }
    reader_slot_clear(slot);
    return rc;
}

int path_walk(struct inode *start, const char *path, int how, struct walk *w)
{
    size_t path_len = strlen(path);
    w->dir = w->node = NULL;
    w->name = NULL;
    w->name_len = 0;
    w->trailing_slash = false;
    w->buffer = NULL;
    w->mount = NULL;
    w->rel = NULL;
    w->rel_len = 0;
    w->follow = false;
    if (path_len == 0)
        return -SPINDLE_ENOENT;
    if (path_len >= SPINDLE_FS_PATH_MAX)
        return -SPINDLE_ENAMETOOLONG;
    if (walk_lock_free(start, path, how, w) == 0)
        return 0;

    struct inode *cur = start;
    inode_ref(cur);
    const char *p = path; /* w->name may point into the caller's path */
    int rc = 0;
    for (;;) {
        if (*p == '/') {
            inode_unref(cur);
            cur = fs_root();
            inode_ref(cur);
            while (*p == '/')
                p++;
            if (*p == '\0') { /* the path is the root itself */
                w->last = LAST_ROOT;
                if (how & WALK_PARENT) {
                    w->dir = cur;
                    w->name = p;
                } else {
                    w->node = cur;
                }
                return 0;
            }
        }
        if (inode_is_mount_entry(cur)) { /* a dirfd inside a mount */
            rc = enter_mount(w, &cur, &p, how);
            if (rc <= 0)
                return rc;
            continue;
        }
        const char *name = p;
        while (*p != '\0' && *p != '/')
            p++;
        size_t len = (size_t)(p - name);
        const char *after = p; /* slashes and the rest of the path */
        while (*p == '/')
            p++;
        bool is_last = *p == '\0';
        bool trailing = is_last && after != p;
        if (len > SPINDLE_FS_NAME_MAX) {
            rc = -SPINDLE_ENAMETOOLONG;
            break;
        }
        if (cur->type != INODE_DIR) {
            rc = -SPINDLE_ENOTDIR;
            break;
        }
        enum last_type kind = LAST_NORM;
        if (len == 1 && name[0] == '.')
            kind = LAST_DOT;
        else if (len == 2 && name[0] == '.' && name[1] == '.')
            kind = LAST_DOTDOT;
        if (is_last && (how & WALK_PARENT)) {
            w->dir = cur;
            w->name = name;
            w->name_len = len;
            w->last = kind;
            w->trailing_slash = trailing;
            return 0;
        }
        rc = fs_permission(cur, FS_MAY_EXEC); /* search permission, for ".." and "." too */
        if (rc < 0)
            break;
        struct inode *next;
        if (kind == LAST_DOT) {
            next = cur;
            inode_ref(next);
        } else if (kind == LAST_DOTDOT) {
            next = dir_parent_ref(cur);
        } else {
            rc = lookup_child(cur, name, len, &next);
            if (rc < 0)
                break;
        }
        if (next->type == INODE_SYMLINK && (!is_last || trailing || (how & WALK_FOLLOW))) {
            if (++w->hops > SPINDLE_FS_SYMLOOP_MAX) {
                inode_unref(next);
                rc = -SPINDLE_ELOOP;
                break;
            }
            struct inode *magic = next->u.symlink.magic;
            if (magic != NULL) { /* /proc/self/fd/N: straight to the fd's inode */
                inode_ref(magic);
                inode_unref(next);
                next = magic;
            } else {
                rc = splice_symlink(w, next, after);
                inode_unref(next);
                if (rc < 0)
                    break;
                p = w->buffer; /* resolve the target relative to cur */
                continue;
            }
        }
        inode_unref(cur);
        cur = next;
        if (inode_is_mount_entry(cur)) { /* the rest belongs to the mount's backend */
            p = after;
            rc = enter_mount(w, &cur, &p, how);
            if (rc <= 0)
                return rc;
            continue;
        }
        if (is_last) {
            if (trailing && cur->type != INODE_DIR) {
                rc = -SPINDLE_ENOTDIR;
                break;
            }
            w->node = cur;
            w->last = kind;
            w->trailing_slash = trailing;
            return 0;
        }
    }
    inode_unref(cur);
    fs_free(w->buffer);
    w->buffer = NULL;
    fs_free(w->rel); /* from a ".." that left a mount */
    w->rel = NULL;
    return rc;
}

int path_walk_follow(struct walk *w, int how)
{
    struct inode *from;
    char *path;
    int rc = atomic_load_explicit(&fs_mount_calls, memory_order_acquire)->follow_start(w, &from, &path);
    int hops = w->hops;
    walk_done(w);
    if (rc < 0)
        return rc;
    memset(w, 0, sizeof *w);
    w->hops = hops;
    rc = path_walk(from, path, how, w); /* without WALK_PARENT nothing points into path */
    inode_unref(from);
    fs_free(path);
    return rc;
}

void walk_done(struct walk *w)
{
    if (w->dir)
        inode_unref(w->dir);
    if (w->node)
        inode_unref(w->node);
    fs_free(w->buffer);
    fs_free(w->rel);
    w->dir = w->node = NULL;
    w->buffer = NULL;
    w->rel = NULL;
    w->mount = NULL;
}

int start_dir(int dirfd, const char *path, struct inode **out)
{
    if (path[0] == '/' || dirfd == SPINDLE_AT_FDCWD) {
        *out = fs_root(); /* dirfd is ignored for absolute paths */
        inode_ref(*out);
        return 0;
    }
    /* (the reader slot holds the description while its inode gets a reference) */
    struct reader_slot *held_in;
    struct open_file *file = description_get(dirfd, &held_in);
    if (file == NULL)
        return -SPINDLE_EBADF;
    struct inode *dir = file->inode;
    int rc = 0;
    if (dir->ops->format != SPINDLE_S_IFDIR) {
        rc = -SPINDLE_ENOTDIR;
    } else {
        inode_ref(dir); /* the description's own reference keeps it alive until then */
        *out = dir;
    }
    description_put(file, held_in);
    return rc;
}

int path_walk_at(int dirfd, const char *path, int how, struct walk *w)
{
    memset(w, 0, sizeof *w);
    struct inode *start;
    int rc = start_dir(dirfd, path, &start);
    if (rc < 0)
        return rc;
    rc = path_walk(start, path, how, w);
    inode_unref(start);
    return rc;
}
