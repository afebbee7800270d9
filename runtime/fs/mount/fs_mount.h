/* THE MOUNT LAYER of runtime/fs (docs/FILESYSTEM.md, "Layers"; docs/MOUNTS.md), over the core:
 * what the rest of the filesystem asks of mounts: the walk handing a path over to a mount, and
 * the calls on a path that ended inside one. The layer's own parts share mount_internal.h; its
 * protocol with the host is mount_wire.h. */
#ifndef SPINDLE_FS_MOUNT_H
#define SPINDLE_FS_MOUNT_H

#include "../core/fs_core.h"

/* the tables of a mount's open files and directories (remote_file.c, remote_dir.c) */
extern const struct inode_ops remote_file_ops, remote_dir_ops;

/* ---- mounts (mount.c, mount_walk.c, mount_namespace.c; their open files: remote_file.c,
 * remote_dir.c) ---- */
/* Lent to the core's path walk by mount.c (fs_mount_calls, with mount_follow_start).
 * The walk reached *cur (a mount point or a remote directory) with `*rest`
 * still to resolve. Fills w and returns 0 or -errno; or, when a ".." leaves
 * the mount, replaces *cur with the mount point's parent, advances *rest and
 * returns MOUNT_WALK_ESCAPED (a w->node/w->dir result may then be set when
 * the path ended there). */
int mount_walk(struct walk *w, struct inode **cur, const char **rest, int how);
bool mount_is_point(const struct inode *dir);
/* Operations on a walk that ended in a mount (w->mount != NULL). mount_open's inode is a
 * mount's file or directory (in_backend), already checked against the flags. */
int mount_open(struct walk *w, int flags, uint32_t mode, struct inode **out, uint64_t *handle);
int mount_stat(struct walk *w, struct spindle_stat *st);
int mount_utimens(struct walk *w, const struct spindle_timespec times[2], int flags);
int mount_mkdir(struct walk *w, uint32_t mode);
int mount_unlink(struct walk *w, bool rmdir);
int mount_rename(struct walk *from, struct walk *to);
int mount_link(struct walk *from, struct walk *to, int flags);
int mount_symlink(const char *target, struct walk *w);
int64_t mount_readlink(struct walk *w, char *buf, size_t size);
int mount_chmod(struct walk *w, uint32_t mode);
/* An operation on w answered SPINDLE_MOUNT_FOLLOW: the path to resolve instead (allocated) and
 * where from (a reference: the root, or the mount point for a relative one); counts a hop. */
int mount_follow_start(struct walk *w, struct inode **from, char **path);
/* Mount `id` (spindle_fs_mount's result) gets the mount layer's permission checks, for a host
 * that lets everything through (docs/MOUNTS.md, "Permissions"). */
void mount_check_modes(int id);
#ifdef __wasm__
int fs_host_mounts_init(void); /* mount_host.c: the host's mount list */
#endif

#endif
