/* What the parts of the mount layer share (docs/MOUNTS.md): mount.c binds directories to
 * backends, mount_walk.c turns the rest of a path into a backend's relative path,
 * mount_namespace.c runs the calls on such paths, and remote_file.c / remote_dir.c are the
 * mount's files and directories once open. */
#ifndef SPINDLE_MOUNT_INTERNAL_H
#define SPINDLE_MOUNT_INTERNAL_H

#include "fs_mount.h"

#define REMOTE_TABLE_SIZE 256

struct fs_mount {
    int id;
    const struct spindle_mount_backend *ops;
    void *ctx;
    struct inode *point; /* counted reference, forever */
    pthread_mutex_t table_lock;
    struct inode *table[REMOTE_TABLE_SIZE]; /* open backend files by backend ino (remote_file.c) */
    /* Bumped by every write or resize this module makes through the backend:
     * an open whose stat raced with one must not take its (older) size. */
    atomic_uint_fast64_t changes;
    /* the mount layer checks the modes as for the ordinary owner (mount_permission.c): the host
     * said it does not (it runs as root); set once, before the program starts */
    bool check_modes;
    /* bumped by this module's calls that change a mode or a name in the mount: a directory
     * chain found searchable before may no longer be (mount_permission.c) */
    atomic_uint_fast64_t mode_changes;
};

/* st_dev of a mount's files: 1 is the memory tree's */
static inline void mount_fix_stat(const struct fs_mount *m, struct spindle_stat *st)
{
    st->dev = 2 + (uint64_t)m->id;
}

/* ---- permission checks on a mount's paths (mount_permission.c): 0 or -errno ---- */
/* search (x) on the mount's root and every directory above w's last name */
int mount_check_search(struct walk *w);
enum name_change { NAME_ADDED, NAME_REMOVED, NAME_REPLACED };
/* the search, and write on the directory whose name `change`s */
int mount_check_names_change(struct walk *w, enum name_change change);
/* the search, then (O_CREAT, O_TRUNC) read/write by open's flags on an existing file, or write
 * on the directory where O_CREAT would make it */
int mount_check_open(struct walk *w, int flags);
/* after the backend opened w without O_CREAT or O_TRUNC: read/write by the flags, on `mode` */
int mount_check_opened(struct walk *w, int flags, uint32_t mode);
/* a call of this module changed a mode or a name in m */
void mount_modes_changed(struct fs_mount *m);
/* write on a directory that rename moves from one parent to another */
int mount_check_moved_dir(struct walk *from, struct walk *to);

/* ---- open files of a mount (remote_file.c) ---- */
/* The shared inode of the file just opened as `handle`, whose open reported st (refreshed if a
 * write of this module raced with it); changes_before is m->changes sampled before that open. */
int remote_file_get(struct fs_mount *m, uint64_t handle, struct spindle_stat *st, bool truncated,
                    uint_fast64_t changes_before, struct inode **out);

/* ---- open directories of a mount (remote_dir.c) ---- */
/* A directory just opened as a handle, at `rel` inside m. NULL if out of memory. */
struct inode *remote_dir_new(struct fs_mount *m, const struct spindle_stat *st, const char *rel,
                             size_t rel_len);

#endif
