/* Mounts: directories of the tree bound to a backend (docs/MOUNTS.md). This file keeps the list
 * of mounts: mounting, and writing out every mount's buffered writes (on demand and at exit).
 * The rest of the layer: the path walk (mount_walk.c), calls on paths inside a mount
 * (mount_namespace.c), its files and directories once open (remote_file.c, remote_dir.c). */
#include "mount_internal.h"

#include <string.h>

static struct fs_mount *mounts[SPINDLE_MOUNT_MAX];
static int mount_count;
static pthread_mutex_t mount_lock = PTHREAD_MUTEX_INITIALIZER;

/* lent to the core's path walk, which meets mounts only once one is made */
static const struct walk_mount_calls walk_calls = {.walk = mount_walk, .follow_start = mount_follow_start};

/* Where the path continues after a backend's SPINDLE_MOUNT_FOLLOW, until the walk takes it. A
 * pointer, not a buffer: a thread-local array would be copied into every module's TLS image. */
static _Thread_local char *follow_pending;

int spindle_mount_follow(const char *path)
{
    size_t len = strnlen(path, SPINDLE_FS_PATH_MAX);
    if (len == 0 || len == SPINDLE_FS_PATH_MAX)
        return -SPINDLE_EIO; /* the backend broke the contract */
    char *copy = fs_malloc(len + 1);
    if (copy == NULL)
        return -SPINDLE_ENOMEM;
    memcpy(copy, path, len + 1);
    fs_free(follow_pending); /* (one a failed walk never took) */
    follow_pending = copy;
    return SPINDLE_MOUNT_FOLLOW;
}

int mount_follow_start(struct walk *w, struct inode **from, char **path)
{
    char *follow = follow_pending;
    follow_pending = NULL;
    if (follow == NULL)
        return -SPINDLE_EIO;
    if (++w->hops > SPINDLE_FS_SYMLOOP_MAX) {
        fs_free(follow);
        return -SPINDLE_ELOOP;
    }
    *path = follow;
    *from = follow[0] == '/' ? fs_root() : w->mount->point;
    inode_ref(*from);
    return 0;
}

bool mount_is_point(const struct inode *dir)
{
    return dir->type == INODE_DIR && atomic_load_explicit(&dir->u.dir.mount, memory_order_acquire) != NULL;
}

static int walk_node(const char *path, struct walk *w)
{
    memset(w, 0, sizeof *w);
    return path_walk(fs_root(), path, WALK_FOLLOW, w);
}

int spindle_fs_mount(const char *path, const struct spindle_mount_backend *ops, void *ctx)
{
    if (path == NULL || path[0] != '/' || ops == NULL)
        return -SPINDLE_EINVAL;
    size_t plen = strlen(path);
    if (plen >= SPINDLE_FS_PATH_MAX)
        return -SPINDLE_ENAMETOOLONG;
    char prefix[SPINDLE_FS_PATH_MAX];
    struct walk w;
    /* mkdir -p, never through a mount (that would create host directories) */
    for (size_t i = 1; i <= plen; i++) {
        if (i < plen && path[i] != '/')
            continue;
        memcpy(prefix, path, i);
        prefix[i] = '\0';
        int rc = walk_node(prefix, &w);
        bool mounted = rc == 0 && w.mount != NULL;
        walk_done(&w);
        if (mounted)
            return -SPINDLE_EBUSY;
        if (rc == -SPINDLE_ENOENT) {
            rc = atomic_load_explicit(&fs_tree_calls, memory_order_acquire)
                     ->mkdirat(SPINDLE_AT_FDCWD, prefix, 0755);
            if (rc == -SPINDLE_EEXIST)
                rc = 0;
        }
        if (rc < 0)
            return rc;
    }
    int rc = walk_node(path, &w);
    if (rc < 0)
        return rc;
    struct inode *node = w.node;
    if (w.mount != NULL)
        rc = -SPINDLE_EBUSY;
    else if (node->type != INODE_DIR)
        rc = -SPINDLE_ENOTDIR;
    else if (node == fs_root())
        rc = -SPINDLE_EBUSY;
    if (rc < 0) {
        walk_done(&w);
        return rc;
    }
    pthread_mutex_lock(&mount_lock);
    struct fs_mount *m = NULL;
    if (mount_count >= SPINDLE_MOUNT_MAX) {
        rc = -SPINDLE_ENOSPC;
    } else if (atomic_load(&node->u.dir.mount) != NULL) {
        rc = -SPINDLE_EBUSY;
    } else {
        m = fs_calloc(1, sizeof *m);
        if (m == NULL || pthread_mutex_init(&m->table_lock, NULL) != 0) {
            fs_free(m);
            rc = -SPINDLE_ENOMEM;
        } else {
            m->id = mount_count;
            m->ops = ops;
            m->ctx = ctx;
            inode_ref(node);
            m->point = node;
            mounts[mount_count++] = m;
            fs_lend_mount_calls(&walk_calls); /* before the walk can meet this mount point */
            atomic_store_explicit(&node->u.dir.mount, m, memory_order_release);
            rc = m->id;
        }
    }
    pthread_mutex_unlock(&mount_lock);
    walk_done(&w);
    return rc;
}

void mount_check_modes(int id)
{
    pthread_mutex_lock(&mount_lock);
    if (id >= 0 && id < mount_count)
        mounts[id]->check_modes = true;
    pthread_mutex_unlock(&mount_lock);
}
