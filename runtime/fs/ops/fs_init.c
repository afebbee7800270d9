/* The root directory and the initial tree (/tmp, /home). */
#include "fs_ops.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool initialized;

/* lent to the layers below, which make /dev, /proc and mount points as a program would */
static const struct tree_calls tree_calls = {
    .mkdirat = spindle_fs_mkdirat,
    .symlinkat = spindle_fs_symlinkat,
    .fchmodat = spindle_fs_fchmodat,
};

static int create_root(void)
{
    struct inode *dir = inode_new(INODE_DIR, &dir_ops, 0755);
    if (dir == NULL)
        return -SPINDLE_ENOMEM;
    if (dir_init(&dir->u.dir, NULL) < 0) {
        inode_unref(dir);
        return -SPINDLE_ENOMEM;
    }
    dir->nlink = 2;
    dir->pinned = true; /* the static pointer keeps the first reference forever */
    path_set_root(dir);
    return 0;
}

static int make_initial_dir(const char *path)
{
    int rc = spindle_fs_mkdirat(SPINDLE_AT_FDCWD, path, 01777);
    return rc == -SPINDLE_EEXIST ? 0 : rc;
}

int spindle_fs_init(void)
{
    if (atomic_load_explicit(&initialized, memory_order_acquire))
        return 0;
    pthread_mutex_lock(&init_lock);
    int rc = 0;
    if (!atomic_load_explicit(&initialized, memory_order_relaxed)) {
        fs_lend_tree_calls(&tree_calls);
        if (fs_root() == NULL)
            rc = create_root();
        if (rc == 0)
            rc = make_initial_dir("/tmp");
        if (rc == 0)
            rc = make_initial_dir("/home");
        if (rc == 0)
            rc = device_create_all(); /* /dev/null and friends (device.c) */
        if (rc == 0)
            rc = proc_create_all(); /* /proc/self/fd, /dev/fd, /dev/stdin... (proc_fd.c) */
#ifdef __wasm__
        if (rc == 0)
            rc = fs_host_mounts_init(); /* the host's --mount list (mount_host.c) */
#endif
        if (rc == 0)
            atomic_store_explicit(&initialized, true, memory_order_release);
    }
    pthread_mutex_unlock(&init_lock);
    return rc;
}
