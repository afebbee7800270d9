/* Spindle filesystem mounts: a directory of the in-memory tree bound to a
 * backend (a host directory in Node, OPFS in browsers, a POSIX directory in
 * the native tests). See docs/MOUNTS.md.
 *
 * Paths handed to a backend (`rel`) are normalized and relative to the
 * mount's root: no leading '/', no empty, "." or ".." components, no trailing
 * '/'; "" is the mount's root. Symlinks inside the mount are the backend's to
 * resolve while they stay inside; an absolute or escaping target gives
 * SPINDLE_MOUNT_FOLLOW (below) or EXDEV (RESOLVE_BENEATH). Every function
 * returns >= 0 or a negative Linux errno. */
#ifndef SPINDLE_MOUNT_H
#define SPINDLE_MOUNT_H

#include "fs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPINDLE_MOUNT_MAX 64

/* What open, stat, utimens and chmod may return when the path meets a symlink whose target is
 * absolute or climbs above the mount's root: the backend does not follow it out, it hands where
 * the path continues to spindle_mount_follow() and returns what that returns. The path is the
 * target followed by the rest of the path, absolute (a path of the program's tree) or relative
 * to the mount's root (its ".." leave the mount, as a bind mount in a container). The C layer
 * resolves that in the program's own tree. A backend may instead answer -EXDEV. */
#define SPINDLE_MOUNT_FOLLOW (-4096)
/* Keeps a copy of `path` for the calling thread's walk: SPINDLE_MOUNT_FOLLOW, or -ENOMEM, or
 * -EIO for an empty path or one of SPINDLE_FS_PATH_MAX bytes or more. */
int spindle_mount_follow(const char *path);

struct spindle_mount_backend {
    /* flags: SPINDLE_O_*; fills st with the opened file's (or directory's) stat */
    int (*open)(void *ctx, const char *rel, int flags, uint32_t mode, uint64_t *handle,
                struct spindle_stat *st);
    int (*close)(void *ctx, uint64_t handle);
    int64_t (*pread)(void *ctx, uint64_t handle, void *buf, size_t len, int64_t offset);
    int64_t (*pwrite)(void *ctx, uint64_t handle, const void *buf, size_t len, int64_t offset);
    int (*fstat)(void *ctx, uint64_t handle, struct spindle_stat *st);
    int (*ftruncate)(void *ctx, uint64_t handle, int64_t length);
    int (*fsync)(void *ctx, uint64_t handle, int datasync);
    int (*futimens)(void *ctx, uint64_t handle, const struct spindle_timespec times[2]);
    /* Entries after `cookie` (0: from the start), without "." and ".."; the
     * backend's cookies are >= 3. Returns the number filled, 0 at the end. */
    int (*readdir)(void *ctx, uint64_t handle, uint64_t cookie, struct spindle_dirent *out, int max);
    int (*stat)(void *ctx, const char *rel, int flags, struct spindle_stat *st); /* AT_SYMLINK_NOFOLLOW */
    int (*mkdir)(void *ctx, const char *rel, uint32_t mode);
    int (*unlink)(void *ctx, const char *rel, int flags); /* AT_REMOVEDIR */
    int (*rename)(void *ctx, const char *from, const char *to);
    int (*link)(void *ctx, const char *from, const char *to, int flags); /* AT_SYMLINK_FOLLOW */
    int (*symlink)(void *ctx, const char *target, const char *rel);
    int64_t (*readlink)(void *ctx, const char *rel, char *buf, size_t size);
    int (*utimens)(void *ctx, const char *rel, const struct spindle_timespec times[2], int flags);
    /* Permission bits (mode & 07777; a backend may keep fewer: the Node one drops setuid, setgid
     * and sticky). flags: AT_SYMLINK_NOFOLLOW. NULL: EPERM (the backend keeps no modes). */
    int (*chmod)(void *ctx, const char *rel, uint32_t mode, int flags);
    int (*fchmod)(void *ctx, uint64_t handle, uint32_t mode);
};

/* Binds the directory `path` (created with its parents if missing) to a
 * backend; `ops` must outlive the filesystem. Returns the mount id (>= 0) or
 * -EBUSY (the root, a mount point already, or inside a mount), -ENOTDIR,
 * -ENOSPC (more than SPINDLE_MOUNT_MAX mounts), ... */
int spindle_fs_mount(const char *path, const struct spindle_mount_backend *ops, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
