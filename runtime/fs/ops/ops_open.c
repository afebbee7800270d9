/* open/openat, close, dup, dup2. */
#include "fs_ops.h"

#include <string.h>

/* A new file and its directory entry, made before the directory is write-locked: the
 * allocations and the clock reading (a host call in wasm) of inode_new then stay out of the
 * critical section that every thread adding or removing a name in that directory waits for.
 * Either pointer is NULL when memory ran out; the error comes only if the name is missing. */
struct new_file {
    struct inode *inode;
    struct dir_entry *entry;
};

static void new_file_prepare(struct new_file *made, const struct walk *w, uint32_t perm)
{
    made->inode = inode_new(INODE_FILE, &mem_file_ops, perm);
    made->entry = made->inode ? dir_entry_new(w->name, w->name_len, made->inode) : NULL;
}

/* What create_file did not use (the name appeared meanwhile, or an error); dir unlocked. */
static void new_file_discard(struct new_file *made)
{
    fs_free(made->entry);
    if (made->inode)
        inode_unref(made->inode);
    made->inode = NULL;
    made->entry = NULL;
}

/* Links the prepared file into `dir` (write-locked by the caller); it is then no longer the
 * caller's to discard. */
static int create_file(struct inode *dir, struct new_file *made, struct inode **out)
{
    if (made->entry == NULL || dir_reserve(&dir->u.dir) < 0)
        return -SPINDLE_ENOSPC;
    struct inode *file = made->inode;
    file->nlink = 1;
    dir_insert(&dir->u.dir, made->entry); /* the entry keeps the first reference */
    dir_touch(dir, file->mtime_ns);
    inode_ref(file);
    *out = file;
    made->inode = NULL;
    made->entry = NULL;
    return 0;
}

/* open_creating met a symlink: its walk starts again at `target` (allocated, now *pending)
 * from `dir` (a reference, now *from), keeping the count of symlinks followed. */
static void walk_restart(struct walk *w, struct inode **from, struct inode *dir, char **pending, char *target)
{
    int hops = w->hops;
    walk_done(w);
    memset(w, 0, sizeof *w);
    w->hops = hops;
    inode_unref(*from);
    *from = dir;
    fs_free(*pending);
    *pending = target;
}

/* O_CREAT: find or create the last component, following a symlink there
 * (even a dangling one: the file is created at its target). */
static int open_creating(struct inode *start, const char *path, int flags, uint32_t perm, struct inode **out,
                         bool *created, uint64_t *handle)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    struct inode *from = start;
    inode_ref(from);
    char *pending = NULL; /* the symlink target being walked; NULL: `path` itself */
    int rc;
    for (;;) {
        rc = path_walk(from, pending ? pending : path, WALK_PARENT, &w);
        if (rc < 0)
            break;
        if (w.mount) { /* inside a mount: its backend creates (mount.c) */
            rc = mount_open(&w, flags, perm, out, handle);
            if (rc == SPINDLE_MOUNT_FOLLOW) { /* a symlink leading out: on in the program's tree */
                struct inode *next;
                char *target;
                rc = mount_follow_start(&w, &next, &target);
                if (rc < 0) {
                    walk_done(&w);
                    break;
                }
                walk_restart(&w, &from, next, &pending, target);
                continue;
            }
            walk_done(&w);
            break;
        }
        if (w.last != LAST_NORM || w.trailing_slash) { /* Linux: EISDIR, even if it exists */
            rc = -SPINDLE_EISDIR;
            walk_done(&w);
            break;
        }
        struct inode *dir = w.dir;
        rc = fs_permission(dir, FS_MAY_EXEC);
        if (rc < 0) {
            walk_done(&w);
            break;
        }
        if (dir->u.dir.listing_lookup) { /* /proc/self/fd/N exists while fd N is open */
            struct inode *link;
            rc = proc_fd_lookup(w.name, w.name_len, &link);
            if (rc == 0) {
                rc = (flags & SPINDLE_O_EXCL)                 ? -SPINDLE_EEXIST
                     : link->u.symlink.magic->ops->in_backend ? -SPINDLE_ENXIO /* as open_existing */
                                                              : 0;
                if (rc == 0) {
                    *out = link->u.symlink.magic;
                    inode_ref(*out);
                    *created = false;
                }
                inode_unref(link);
            }
            walk_done(&w);
            break;
        }
        /* Opening an existing file needs only a shared lock, so threads
         * opening different files of one directory do not serialize. */
        inode_read_lock(dir);
        struct dir_entry *found = dir->u.dir.dead ? NULL : dir_find(&dir->u.dir, w.name, w.name_len);
        if (found && !(flags & SPINDLE_O_EXCL) && found->inode->type != INODE_SYMLINK) {
            inode_ref(found->inode);
            *out = found->inode;
            *created = false;
            inode_unlock(dir);
            walk_done(&w);
            rc = 0;
            break;
        }
        inode_unlock(dir);
        struct new_file made = {NULL, NULL};
        bool prepared = found == NULL; /* the name is most likely still missing */
        if (prepared)
            new_file_prepare(&made, &w, perm);
        inode_write_lock(dir);
        struct dir_entry *e = dir->u.dir.dead ? NULL : dir_find(&dir->u.dir, w.name, w.name_len);
        if (dir->u.dir.dead) {
            rc = -SPINDLE_ENOENT;
        } else if (e == NULL) {
            rc = fs_permission(dir, FS_MAY_WRITE | FS_MAY_EXEC);
            if (rc == 0 && !prepared) /* the name went away since the shared lookup (rare) */
                new_file_prepare(&made, &w, perm);
            if (rc == 0)
                rc = create_file(dir, &made, out);
            *created = rc == 0;
        } else if (flags & SPINDLE_O_EXCL) {
            rc = -SPINDLE_EEXIST;
        } else if (e->inode->type == INODE_SYMLINK) {
            if (flags & SPINDLE_O_NOFOLLOW) {
                rc = -SPINDLE_ELOOP;
            } else if (++w.hops > SPINDLE_FS_SYMLOOP_MAX) {
                rc = -SPINDLE_ELOOP;
            } else {
                /* resolve the target relative to this directory */
                struct inode *link = e->inode;
                char *target = fs_malloc(link->u.symlink.len + 1);
                if (target == NULL) {
                    rc = -SPINDLE_ENOMEM;
                } else {
                    memcpy(target, link->u.symlink.target, link->u.symlink.len);
                    target[link->u.symlink.len] = '\0';
                    inode_unlock(dir);
                    new_file_discard(&made);
                    inode_ref(dir);
                    walk_restart(&w, &from, dir, &pending, target);
                    continue;
                }
            }
        } else {
            inode_ref(e->inode);
            *out = e->inode;
            *created = false;
            rc = 0;
        }
        inode_unlock(dir);
        new_file_discard(&made);
        walk_done(&w);
        break;
    }
    fs_free(pending);
    inode_unref(from);
    return rc;
}

static int open_existing(struct inode *start, const char *path, int flags, struct inode **out,
                         uint64_t *handle)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    int how = (flags & SPINDLE_O_NOFOLLOW) ? 0 : WALK_FOLLOW;
    int rc = path_walk(start, path, how, &w);
    while (rc == 0 && w.mount) {
        rc = mount_open(&w, flags, 0, out, handle);
        if (rc != SPINDLE_MOUNT_FOLLOW) {
            walk_done(&w);
            return rc;
        }
        rc = path_walk_follow(&w, how); /* a symlink leading out: on in the program's tree */
    }
    if (rc < 0)
        return rc;
    *out = w.node;
    w.node = NULL;
    walk_done(&w);
    if ((*out)->type == INODE_SYMLINK) { /* only reached with O_NOFOLLOW */
        inode_unref(*out);
        return -SPINDLE_ELOOP;
    }
    if ((*out)->ops->in_backend) { /* a mount's file through /proc/self/fd: no backend walk to reopen it */
        inode_unref(*out);
        return -SPINDLE_ENXIO;
    }
    return 0;
}

/* What opening an existing inode with these flags needs: read and/or write by the access
 * mode, write for O_TRUNC. A file the open just created needs nothing (open(O_CREAT|O_WRONLY,
 * 0444) writes, as on Linux). */
static int open_permission(const struct inode *node, int flags)
{
    int access = flags & SPINDLE_O_ACCMODE;
    int want = access == SPINDLE_O_WRONLY ? FS_MAY_WRITE
               : access == SPINDLE_O_RDWR ? FS_MAY_READ | FS_MAY_WRITE
                                          : FS_MAY_READ;
    if (flags & SPINDLE_O_TRUNC)
        want |= FS_MAY_WRITE;
    return fs_permission(node, want);
}

static int check_and_truncate(struct inode *node, int flags, bool created)
{
    int access = flags & SPINDLE_O_ACCMODE;
    if (node->type == INODE_DIR) {
        if (access != SPINDLE_O_RDONLY || (flags & SPINDLE_O_TRUNC) || (flags & SPINDLE_O_CREAT))
            return -SPINDLE_EISDIR;
        return open_permission(node, flags);
    }
    if (flags & SPINDLE_O_DIRECTORY)
        return -SPINDLE_ENOTDIR;
    int rc = created ? 0 : open_permission(node, flags);
    if (rc < 0)
        return rc;
    if ((flags & SPINDLE_O_TRUNC) && !created && node->type == INODE_FILE)
        mem_file_truncate(node, 0);
    return 0;
}

int spindle_fs_openat(int dirfd, const char *path, int flags, uint32_t mode)
{
    if ((flags & SPINDLE_O_ACCMODE) == SPINDLE_O_ACCMODE)
        return -SPINDLE_EINVAL;
    if ((flags & SPINDLE_O_CREAT) && (flags & SPINDLE_O_DIRECTORY))
        return -SPINDLE_EINVAL;
    /* The fd and the description exist before anything is created, so an
     * EMFILE/ENOMEM leaves the tree untouched. */
    int fd = fd_reserve();
    if (fd < 0)
        return fd;
    struct open_file *file = open_file_new(NULL, flags);
    if (file == NULL) {
        fd_unreserve(fd);
        return -SPINDLE_ENOMEM;
    }
    struct inode *start, *node = NULL;
    bool created = false;
    uint64_t handle = 0;
    int rc = start_dir(dirfd, path, &start);
    if (rc == 0) {
        if (flags & SPINDLE_O_CREAT)
            rc = open_creating(start, path, flags, mode, &node, &created, &handle);
        else
            rc = open_existing(start, path, flags, &node, &handle);
        inode_unref(start);
    }
    if (rc == 0 && node->ops->in_backend) { /* checked and opened by mount_open */
        file->inode = node;
        file->handle = handle;
        fd_install(fd, file);
        return fd;
    }
    if (rc == 0) {
        rc = check_and_truncate(node, flags, created);
        if (rc == 0)
            rc = stdio_opened(node, file, flags);
        if (rc < 0)
            inode_unref(node);
    }
    if (rc < 0) {
        open_file_unref(file);
        fd_unreserve(fd);
        return rc;
    }
    file->inode = node;
    if (node->type == INODE_PIPE) /* /proc/self/fd/N of a pipe: one more end */
        pipe_end_opened(node, file->access);
    fd_install(fd, file);
    return fd;
}

int spindle_fs_close(int fd)
{
    struct open_file *file = fd_detach(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    int rc = file->inode->ops->close ? file->inode->ops->close(file) : 0;
    if (file_locks_close_fd) /* POSIX: any close drops the process's record locks */
        file_locks_close_fd(file);
    open_file_unref(file);
    return rc;
}

int spindle_fs_dup(int fd) { return spindle_fs_dupfd(fd, SPINDLE_FS_FIRST_FD); }

int spindle_fs_dupfd(int fd, int min)
{
    if (min < 0 || min >= SPINDLE_FS_MAX_FDS)
        return -SPINDLE_EINVAL;
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    int newfd = fd_reserve_from(min);
    if (newfd < 0) {
        open_file_unref(file);
        return newfd;
    }
    fd_install(newfd, file); /* the reference from fd_get moves to the table */
    return newfd;
}

int spindle_fs_dup2(int oldfd, int newfd)
{
    struct open_file *file = fd_get(oldfd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    if (oldfd == newfd) {
        open_file_unref(file);
        return newfd;
    }
    struct open_file *previous = NULL;
    int rc = fd_replace(newfd, file, &previous);
    open_file_unref(file);
    if (rc < 0)
        return rc;
    if (previous)
        open_file_unref(previous);
    return newfd;
}
