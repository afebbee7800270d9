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

#endif
