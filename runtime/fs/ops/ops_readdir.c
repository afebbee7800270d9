/* readdir by cookie, and the table of the memory tree's directories (dir_ops).
 * Cookies are entry sequence numbers ("." is 1, ".." is 2), which only grow
 * within a directory. Entries are listed newest first, as Linux's tmpfs lists
 * them (programs ported from Linux see the order they saw there): resuming
 * after cookie c returns exactly the entries with a smaller sequence number
 * still present, so concurrent additions and removals never cause repeats or
 * skips of entries that stay, and a name added during a listing is not seen
 * by it (as on tmpfs). */
#include "fs_ops.h"

#include <string.h>

static void fill(struct spindle_dirent *out, const char *name, size_t len, struct inode *inode,
                 uint64_t cookie)
{
    out->next_cookie = cookie;
    out->ino = inode->ino;
    out->type = inode->type == INODE_DIR       ? SPINDLE_DT_DIR
                : inode->type == INODE_SYMLINK ? SPINDLE_DT_LNK
                : inode->type == INODE_DEVICE  ? SPINDLE_DT_CHR
                : inode->type == INODE_PIPE    ? SPINDLE_DT_FIFO
                                               : SPINDLE_DT_REG;
    out->name_len = (uint16_t)len;
    memcpy(out->name, name, len);
    out->name[len] = '\0';
}

int spindle_fs_readdir(int fd, uint64_t cookie, struct spindle_dirent *out, int max)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    const struct inode_ops *ops = file->inode->ops;
    int n = ops->readdir ? ops->readdir(file, cookie, out, max) : -SPINDLE_ENOTDIR;
    open_file_unref(file);
    return n;
}

/* A directory of the memory tree (dir_ops). */
static int list_dir(struct open_file *file, uint64_t cookie, struct spindle_dirent *out, int max)
{
    struct inode *dir = file->inode;
    if (dir->u.dir.listing_lookup)
        return proc_fd_readdir(cookie, out, max);
    int n = 0;
    inode_read_lock(dir);
    struct dir_data *d = &dir->u.dir;
    if (!d->dead) { /* a removed directory lists nothing, as on Linux */
        if (cookie < 1 && n < max)
            fill(&out[n++], ".", 1, dir, 1);
        if (cookie < 2 && n < max)
            fill(&out[n++], "..", 2, d->parent ? d->parent : dir, 2);
        /* Newest first, as Linux's tmpfs lists: the entries older than the cookie's */
        uint64_t older_than = cookie <= 2 ? UINT64_MAX : cookie;
        for (size_t i = dir_first_after(d, older_than - 1); i > 0 && n < max;) {
            struct dir_entry *e = d->order[--i];
            if (e)
                fill(&out[n++], e->name, e->name_len, e->inode, e->seq);
        }
    }
    inode_touch_atime(dir);
    inode_unlock(dir);
    return n;
}

/* Its entries' references go; its parent's is the caller's to drop next. */
static struct inode *free_dir(struct inode *dir)
{
    struct inode *parent = dir->u.dir.parent;
    dir_free(&dir->u.dir);
    return parent;
}

const struct inode_ops dir_ops = {.format = SPINDLE_S_IFDIR, .readdir = list_dir, .free = free_dir};
