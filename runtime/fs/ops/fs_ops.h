/* THE OPERATIONS LAYER of runtime/fs (docs/FILESYSTEM.md, "Layers"), the top: the calls
 * programs make (spindle_fs_* of include/spindle/fs.h: ops_*.c), the files API's copies
 * (host_copy.c) and the start-up (fs_init.c). It may use every layer below; what the ops files
 * share among themselves is declared here. */
#ifndef SPINDLE_FS_OPS_H
#define SPINDLE_FS_OPS_H

#include "../core/fs_core.h"
#include "../mount/fs_mount.h"
#include "../special/fs_special.h"

/* the directories' table (ops_readdir.c) */
extern const struct inode_ops dir_ops;

/* path_walk_at(WALK_PARENT), refusing to make or remove a name in /proc/self/fd (EPERM). */
int walk_parent_at(int dirfd, const char *path, struct walk *w);

#endif
