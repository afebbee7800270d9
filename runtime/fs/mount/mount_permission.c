/* Permission checks on a mount's paths, as Linux makes them for the ordinary user who owns
 * every file (docs/POSIX.md, "Permissions"; the memory tree's are runtime/fs/core/permission.c).
 * The host checks too, but as the user of the host process: a `spindle run` that is root on
 * the host lets everything through. For such a mount (check_modes, said by the host) the mount
 * layer reads the owner's bits of the modes the backend reports: search (x) on every directory
 * of the path, write and search on the directory whose names change, read/write on a file
 * opened. Each is a backend stat, so other mounts, where the host's own checks answer as these
 * would, are not checked twice. fs_owner_permission passes everything for a program linked
 * --as-root. A backend stat that fails leaves the answer to the operation. */
#include "mount_internal.h"

#include <string.h>

/* The permission bits of rel inside m (symlinks followed), or -1 where the backend cannot say. */
static int64_t mode_at(struct fs_mount *m, const char *rel)
{
    struct spindle_stat st;
    return m->ops->stat(m->ctx, rel, 0, &st) == 0 ? (int64_t)st.mode : -1;
}

static int owner_may(int64_t mode, int want)
{
    return mode < 0 ? 0 : fs_owner_permission((uint32_t)mode, want);
}

/* A directory known to be searchable whose mode was not read (a memo's ancestor). */
#define SEARCHABLE_DIR (-2)

static bool is_dir(int64_t mode)
{
    return mode == SEARCHABLE_DIR || (mode >= 0 && ((uint32_t)mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR);
}

/* The last directory chain a thread found searchable (its parent path, and that directory's
 * mode, or SEARCHABLE_DIR), so that calls on names of one directory (a listing's stats, a loop
 * over one file) pay no stat per directory each time, and a call in a directory beside it or
 * below it (a recursive walk) pays only for the directories the chain lacks. It holds while
 * this module changed no mode and removed or renamed no directory in the mount
 * (m->mode_changes: chmod, rmdir, rename) and for MEMO_NS after its oldest check at most: a
 * change made on the host by another process (or a symlink in the chain replaced by this one)
 * is seen within that time. */
#define MEMO_NS 100000000 /* 100 ms */
static _Thread_local struct {
    const struct fs_mount *mount;
    uint_fast64_t changes;
    int64_t checked_ns;
    int64_t parent_mode;
    size_t len;
    char *path; /* SPINDLE_FS_PATH_MAX bytes, allocated on first use */
} memo;

/* How much of parent (len bytes: empty, or names each followed by '/') the memo's chain
 * covers: the bytes up to its last '/' that both share (0: the root alone); -1 if it holds no
 * longer. */
static ptrdiff_t memo_covers(const struct fs_mount *m, const char *parent, size_t len, int64_t now)
{
    if (memo.mount != m || memo.changes != atomic_load(&m->mode_changes) ||
        now - memo.checked_ns >= MEMO_NS || now < memo.checked_ns)
        return -1;
    size_t shared = len < memo.len ? len : memo.len, covered = 0;
    for (size_t i = 0; i < shared && parent[i] == memo.path[i]; i++)
        if (parent[i] == '/')
            covered = i + 1;
    return (ptrdiff_t)covered;
}

static void memo_keep(const struct fs_mount *m, uint_fast64_t changes, const char *parent, size_t len,
                      int64_t mode, int64_t now)
{
    if (memo.path == NULL && (memo.path = fs_malloc(SPINDLE_FS_PATH_MAX)) == NULL)
        return;
    memcpy(memo.path, parent, len);
    memo.mount = m;
    memo.changes = changes;
    memo.checked_ns = now;
    memo.parent_mode = mode;
    memo.len = len;
}

/* Search permission on the mount's root and on each directory of w->rel above its last name.
 * The path is cut at each slash in place and restored. A component that is missing or not a
 * directory ends the checks: the operation answers ENOENT or ENOTDIR, as Linux does there.
 * *parent_mode: the mode of the directory holding the last name (-1 unknown). */
static int search_path(struct walk *w, int64_t *parent_mode)
{
    struct fs_mount *m = w->mount;
    size_t limit = (size_t)(w->name - w->rel) < w->rel_len ? (size_t)(w->name - w->rel) : w->rel_len;
    int64_t now = fs_now_ns();
    uint_fast64_t changes = atomic_load(&m->mode_changes);
    ptrdiff_t covered = memo_covers(m, w->rel, limit, now);
    int64_t mode, checked_ns = now;
    int rc = 0;
    size_t from = 0; /* the chain is checked up to here */
    if (covered >= 0) {
        from = (size_t)covered;
        mode = from == memo.len ? memo.parent_mode : SEARCHABLE_DIR;
        checked_ns = memo.checked_ns; /* the chain is as old as its oldest check */
    } else {
        mode = mode_at(m, "");
        rc = owner_may(mode, FS_MAY_EXEC);
    }
    for (size_t i = from; rc == 0 && is_dir(mode) && i < limit; i++) {
        if (w->rel[i] != '/')
            continue;
        w->rel[i] = '\0';
        mode = mode_at(m, w->rel);
        w->rel[i] = '/';
        rc = is_dir(mode) ? owner_may(mode, FS_MAY_EXEC) : 0;
    }
    bool same_chain = covered >= 0 && from == limit && limit == memo.len;
    if (rc == 0 && is_dir(mode) && !same_chain)
        memo_keep(m, changes, w->rel, limit, mode, checked_ns);
    if (parent_mode != NULL && mode == SEARCHABLE_DIR) {
        /* the directory the chain ends in, rel up to `from` (a '/' there), is a memo's
         * ancestor: its mode is read now */
        if (from > 0)
            w->rel[from - 1] = '\0';
        mode = mode_at(m, from > 0 ? w->rel : "");
        if (from > 0)
            w->rel[from - 1] = '/';
    }
    if (parent_mode != NULL)
        *parent_mode = is_dir(mode) ? mode : -1;
    /* "dir/." and "dir/..": the walk went through dir itself (after "..", through its parent) */
    if (rc == 0 && is_dir(mode) && w->last != LAST_NORM && w->rel_len > 0) {
        int64_t last = mode_at(m, w->rel);
        rc = is_dir(last) ? owner_may(last, FS_MAY_EXEC) : 0;
    }
    return rc;
}

void mount_modes_changed(struct fs_mount *m) { atomic_fetch_add(&m->mode_changes, 1); }

int mount_check_search(struct walk *w) { return w->mount->check_modes ? search_path(w, NULL) : 0; }

/* A name of w's directory changes: write and search there, after the name's existence as
 * Linux checks it (`change`: EEXIST first for an added name, ENOENT for a removed one). */
int mount_check_names_change(struct walk *w, enum name_change change)
{
    if (!w->mount->check_modes)
        return 0;
    int64_t parent_mode;
    int rc = search_path(w, &parent_mode);
    if (rc < 0 || owner_may(parent_mode, FS_MAY_WRITE | FS_MAY_EXEC) == 0)
        return rc;
    struct spindle_stat st;
    bool exists = w->mount->ops->stat(w->mount->ctx, w->rel, SPINDLE_AT_SYMLINK_NOFOLLOW, &st) == 0;
    if (change == NAME_ADDED && exists)
        return -SPINDLE_EEXIST;
    if (change == NAME_REMOVED && !exists)
        return -SPINDLE_ENOENT;
    return -SPINDLE_EACCES;
}

static int open_wants(int flags)
{
    int access = flags & SPINDLE_O_ACCMODE;
    int want = access == SPINDLE_O_WRONLY ? FS_MAY_WRITE
               : access == SPINDLE_O_RDWR ? FS_MAY_READ | FS_MAY_WRITE
                                          : FS_MAY_READ;
    return (flags & SPINDLE_O_TRUNC) ? want | FS_MAY_WRITE : want;
}

/* open of what w names with these flags, before the backend opens: the search; with O_CREAT
 * or O_TRUNC also the file's own mode, so that a refused O_TRUNC truncates nothing and a file
 * O_CREAT makes needs write on its directory. Other opens are checked after, by
 * mount_check_opened, with the mode the open reports (no stat of their own). */
int mount_check_open(struct walk *w, int flags)
{
    if (!w->mount->check_modes)
        return 0;
    int64_t parent_mode;
    int rc = search_path(w, &parent_mode);
    if (rc < 0 || !(flags & (SPINDLE_O_CREAT | SPINDLE_O_TRUNC)))
        return rc;
    int64_t mode = mode_at(w->mount, w->rel);
    if (mode < 0) /* missing: O_CREAT makes it */
        return (flags & SPINDLE_O_CREAT) ? owner_may(parent_mode, FS_MAY_WRITE | FS_MAY_EXEC) : 0;
    if ((flags & (SPINDLE_O_CREAT | SPINDLE_O_EXCL)) == (SPINDLE_O_CREAT | SPINDLE_O_EXCL))
        return 0; /* the backend's EEXIST */
    return owner_may(mode, open_wants(flags));
}

int mount_check_opened(struct walk *w, int flags, uint32_t mode)
{
    if (!w->mount->check_modes || (flags & (SPINDLE_O_CREAT | SPINDLE_O_TRUNC)))
        return 0;
    return owner_may(mode, open_wants(flags));
}

/* A directory that rename moves to another parent needs write permission itself (its ".."
 * changes). */
int mount_check_moved_dir(struct walk *from, struct walk *to)
{
    size_t from_parent = (size_t)(from->name - from->rel), to_parent = (size_t)(to->name - to->rel);
    bool same_parent = from_parent == to_parent && memcmp(from->rel, to->rel, from_parent) == 0;
    struct spindle_stat st;
    if (!from->mount->check_modes || same_parent ||
        from->mount->ops->stat(from->mount->ctx, from->rel, SPINDLE_AT_SYMLINK_NOFOLLOW, &st) != 0 ||
        (st.mode & SPINDLE_S_IFMT) != SPINDLE_S_IFDIR)
        return 0;
    return fs_owner_permission(st.mode, FS_MAY_WRITE);
}
