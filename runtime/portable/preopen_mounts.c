// The host's preopened directories as mounts of the in-memory tree (docs/PORTABLE.md). In a
// portable module this stands in for runtime/fs/mount_host.c, which asks Spindle's host for its
// --mount list: the filesystem calls it once, while it starts, before main.
#include <string.h>

#include "../wasi/wasi_abi.h"
#include "../wasi/wasi_host.h"
#include "wasi_mount.h"

#define FIRST_PREOPEN_FD 3 // WASI hosts number preopens from 3, after stdio

static struct wasi_mount mounts[SPINDLE_MOUNT_MAX];

// The preopen's name as a path of the tree: "data", "./data" and "/data/" are all /data.
// Returns false for a name that is the root ("/", "."): the root stays the in-memory tree's.
static bool mount_path(const char *name, char *path, size_t size)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    while (*name == '/')
        name++;
    size_t len = strlen(name);
    while (len && name[len - 1] == '/')
        len--;
    if (len == 0 || (len == 1 && name[0] == '.') || len + 2 > size)
        return false;
    path[0] = '/';
    memcpy(path + 1, name, len);
    path[len + 1] = '\0';
    return true;
}

// 1 if the preopen `fd` became a mount, 0 if skipped, -EBADF past the last preopen, or an error.
static int mount_preopen(int fd, int index)
{
    struct wasi_prestat prestat;
    if (host_fd_prestat_get(fd, (int32_t)(uintptr_t)&prestat) != WASI_ESUCCESS)
        return -SPINDLE_EBADF; // the end of the preopens
    char name[SPINDLE_FS_PATH_MAX], path[SPINDLE_FS_PATH_MAX];
    struct wasi_fdstat stat;
    if (prestat.tag != WASI_PREOPENTYPE_DIR || prestat.dir_name_len >= sizeof name ||
        host_fd_prestat_dir_name(fd, (int32_t)(uintptr_t)name, (int32_t)prestat.dir_name_len) !=
            WASI_ESUCCESS ||
        host_fd_fdstat_get(fd, (int32_t)(uintptr_t)&stat) != WASI_ESUCCESS)
        return 0; // not a directory this module can use: skipped
    name[prestat.dir_name_len] = '\0';
    if (!mount_path(name, path, sizeof path))
        return 0;
    mounts[index] = (struct wasi_mount){fd, stat.rights_inheriting};
    int rc = spindle_fs_mount(path, &wasi_mount_backend, &mounts[index]);
    if (rc == -SPINDLE_EBUSY)
        return 0; // a second preopen of the same name: the first one wins
    return rc < 0 ? rc : 1;
}

int fs_host_mounts_init(void)
{
    int used = 0;
    for (int fd = FIRST_PREOPEN_FD; used < SPINDLE_MOUNT_MAX; fd++) {
        int rc = mount_preopen(fd, used);
        if (rc == -SPINDLE_EBADF)
            return 0;
        if (rc < 0)
            return rc;
        used += rc;
    }
    return 0;
}
