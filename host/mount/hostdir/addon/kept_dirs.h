// Directories a thread keeps open, each checked by inotify instead of by a path walk per call
// (docs/MOUNTS.md, "Directories kept open, watched"): a stat of a name in a kept directory is
// one fstatat(2) of that name, after one read(2) of the watch queue that must be empty.
#ifndef SPINDLE_KEPT_DIRS_H
#define SPINDLE_KEPT_DIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct kept_dirs;

// A thread's kept directories (none yet), or NULL where there is no inotify (or
// SPINDLE_MOUNT_KEPT_DIRS=0): callers then go the uncached way.
struct kept_dirs *kept_dirs_new(void);

// Closes every kept directory and the watch queue: kept_dirs_drop() to go on (a later call keeps
// them anew), kept_dirs_free() at the thread's end.
void kept_dirs_drop(struct kept_dirs *kept);
void kept_dirs_free(struct kept_dirs *kept);

// The fd of path's parent directory, kept open and where path says it is, and in *name path's
// last name; or -1 where it could not be kept (a symlink or a missing directory on the way, a
// file system whose changes inotify may not see, a change meanwhile): the caller then goes the
// uncached way. path: absolute, of plain names only, whose first root_len bytes are the mount's
// real root, with at least one name below it. The fd stays this thread's: valid until its next
// call here, never closed by the caller.
int kept_parent(struct kept_dirs *kept, const char *path, size_t root_len, const char **name);

#endif
