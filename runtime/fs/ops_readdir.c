/* readdir by cookie, and the table of the memory tree's directories (dir_ops).
 * Cookies are entry sequence numbers ("." is 1, ".." is 2), which only grow
 * within a directory: resuming after cookie c returns exactly the entries with
 * a larger sequence number still present, so concurrent additions and removals
 * never cause repeats or skips of entries that stay. */
#include "fs_internal.h"

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
    if (dir->u.dir.fd_listing)
        return proc_fd_readdir(cookie, out, max);
    int n = 0;
    inode_read_lock(dir);
    struct dir_data *d = &dir->u.dir;
    if (!d->dead) { /* a removed directory lists nothing, as on Linux */
        if (cookie < 1 && n < max)
            fill(&out[n++], ".", 1, dir, 1);
        if (cookie < 2 && n < max)
            fill(&out[n++], "..", 2, d->parent ? d->parent : dir, 2);
        size_t i = dir_first_after(d, cookie < 2 ? 2 : cookie);
        for (; i < d->order_len && n < max; i++) {
            struct dir_entry *e = d->order[i];
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
