/* The WASI-backed mount (wasi_mount.c) and the preopens it serves (preopen_mounts.c). */
#ifndef SPINDLE_PORTABLE_WASI_MOUNT_H
#define SPINDLE_PORTABLE_WASI_MOUNT_H

#include <stdint.h>

#include "spindle/mount.h"

struct wasi_mount {
    int fd;          /* the host's preopened directory */
    uint64_t rights; /* what it lets files opened under it have (its inheriting rights) */
};

extern const struct spindle_mount_backend wasi_mount_backend;

/* Open files of the host (host_fd_per_thread.c): a backend handle that is a host fd on every thread.
 * Each returns a WASI errno. */
int32_t host_file_open(int32_t dir_fd, const char *path, int32_t lookup, int32_t oflags, int64_t base,
                       int64_t inheriting, uint64_t *handle);
/* The handle's host fd on the calling thread */
int32_t host_file_fd(uint64_t handle, int32_t *fd);
int32_t host_file_close(uint64_t handle);

#endif
