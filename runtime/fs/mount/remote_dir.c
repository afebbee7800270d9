/* The open directories of a mount: one INODE_REMOTE_DIR inode per open, holding the directory's
 * path inside the mount so that it can serve as the dirfd of the *at calls (mount_walk.c starts
 * from it). Nothing is cached: every call goes to the backend with the description's handle. */
#include "mount_internal.h"

#include <string.h>

struct inode *remote_dir_new(struct fs_mount *m, const struct spindle_stat *st, const char *rel,
                             size_t rel_len)
{
    struct inode *inode = inode_new(INODE_REMOTE_DIR, &remote_dir_ops, st->mode & 07777);
    char *copy = fs_malloc(rel_len + 1);
    if (inode == NULL || copy == NULL) {
        fs_free(copy);
        if (inode)
            inode_unref(inode);
        return NULL;
    }
    memcpy(copy, rel, rel_len);
    copy[rel_len] = '\0';
    struct remote_dir *r = &inode->u.remote_dir;
    r->mount = m;
    r->backend_ino = st->ino;
    r->rel = copy;
    r->rel_len = rel_len;
    inode->size = st->size;
    inode->nlink = st->nlink;
    return inode;
}

/* d_ino of a mount directory's "..": what stat of it reports (the tree's directory holding
 * the mount point for the mount's root; else the backend's parent directory). 0 if unknown. */
static uint64_t parent_ino(const struct remote_dir *r)
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

static int list_dir(struct open_file *file, uint64_t cookie, struct spindle_dirent *out, int max)
{
    const struct remote_dir *r = &file->inode->u.remote_dir;
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
        int got =
            r->mount->ops->readdir(r->mount->ctx, file->handle, cookie < 3 ? 0 : cookie, out + n, max - n);
        if (got < 0)
            return n > 0 ? n : got;
        /* a directory removed while open lists nothing, not even "." and "..", as on Linux;
         * asked only of a listing that starts empty */
        struct spindle_stat st;
        if (got == 0 && cookie < 3 && r->mount->ops->fstat(r->mount->ctx, file->handle, &st) == 0 &&
            st.nlink == 0)
            return 0;
        n += got;
    }
    return n;
}

static int remote_fstat(struct open_file *file, struct spindle_stat *st)
{
    struct fs_mount *m = file->inode->u.remote_dir.mount;
    int rc = m->ops->fstat(m->ctx, file->handle, st);
    if (rc == 0)
        mount_fix_stat(m, st);
    return rc;
}

static int remote_fsync(struct open_file *file, int datasync)
{
    struct fs_mount *m = file->inode->u.remote_dir.mount;
    return m->ops->fsync(m->ctx, file->handle, datasync);
}

static int remote_futimens(struct open_file *file, const struct spindle_timespec times[2])
{
    struct fs_mount *m = file->inode->u.remote_dir.mount;
    return m->ops->futimens(m->ctx, file->handle, times);
}

static int remote_fchmod(struct open_file *file, uint32_t mode)
{
    struct fs_mount *m = file->inode->u.remote_dir.mount;
    mount_modes_changed(m); /* a directory chain found searchable may no longer be */
    return m->ops->fchmod ? m->ops->fchmod(m->ctx, file->handle, mode) : -SPINDLE_EPERM;
}

static void close_handle(struct open_file *file)
{
    struct fs_mount *m = file->inode->u.remote_dir.mount;
    m->ops->close(m->ctx, file->handle);
}

static struct inode *free_dir(struct inode *inode)
{
    fs_free(inode->u.remote_dir.rel);
    return NULL;
}

const struct inode_ops remote_dir_ops = {
    .format = SPINDLE_S_IFDIR,
    .in_backend = true,
    .fstat = remote_fstat,
    .sync = remote_fsync,
    .set_times = remote_futimens,
    .set_mode = remote_fchmod,
    .readdir = list_dir,
    .release = close_handle,
    .free = free_dir,
};
