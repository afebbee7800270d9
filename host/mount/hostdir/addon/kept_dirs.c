// Directories a thread keeps open, kept valid by inotify (docs/MOUNTS.md, "Directories kept
// open, watched").
//
// A confined stat through the kernel alone is openat2(RESOLVE_NO_SYMLINKS) + fstat + close, twice
// a plain stat's time: the open makes and frees a struct file. A directory kept open answers
// with one fstatat(2) of the last name instead, but only while it is still where the path says:
// another process may rename it (or any directory above it) away, out of the mount, replace it
// with a symlink, remove it, or take the search permission off one on the way. So every
// directory from / down to a kept one carries an inotify watch for exactly those changes
// (WATCH_MASK), and each call first reads the watch queue: any such event drops every kept
// directory and every watch (a fresh queue), and the call walks again. The kernel queues the
// event inside the rename, rmdir or chmod itself, so a change made before a call began is always
// seen by that call, as a path walk would see it.
//
// A directory is kept only after its whole chain was watched and then found again, name by name,
// to be the same directories (device and inode): from then on any change to one of them is in
// the queue. Only file systems whose every change passes through this kernel are trusted
// (local ones: not NFS, SMB, FUSE, 9p or virtiofs, whose other clients change names unseen).
#define _GNU_SOURCE
#include "kept_dirs.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEPT_MAX 32         // directories kept per thread (least recently used closed first)
#define WATCHES_MAX                                                                                          \
    512     // watches added before the queue starts afresh (each pins an inode,
                            // and a user has 8,192 on older kernels)
#define QUEUES_MAX                                                                                           \
    16       // threads of a process with a queue (a user has 128 inotify
                            // instances in all); others go the uncached way
#define DEPTH_MAX 128       // names walked for one directory
#define REFUSED_MAX 8       // directories remembered as not watchable (then: none kept at all)

#ifndef XFS_SUPER_MAGIC
#define XFS_SUPER_MAGIC 0x58465342
#endif
#ifndef ZFS_SUPER_MAGIC
#define ZFS_SUPER_MAGIC 0x2fc12fc1
#endif

// IN_DELETE: a directory removed while this thread holds it open gets its IN_DELETE_SELF only
// once the last fd is closed, so its removal is seen on its parent's watch (a directory only:
// files come and go in a kept directory freely). IN_ATTRIB: also a rename over it (its link
// count), and search permission taken off. A child's IN_ATTRIB is not a change of the directory.
static const uint32_t WATCH_MASK =
    IN_MOVE_SELF | IN_DELETE_SELF | IN_ATTRIB | IN_DELETE | IN_UNMOUNT | IN_ONLYDIR;

struct kept {
    int fd;          // O_PATH | O_DIRECTORY
    size_t len;      // of path
    uint64_t used;   // the clock at its last use
    char *path;      // absolute, as callers name it
};

struct kept_dirs {
    int queue;       // inotify, non-blocking; -1 for none now (made at the next call)
    int count;
    uint32_t watches;
    uint64_t clock;
    struct kept dirs[KEPT_MAX];
    // directories that cannot be watched (another file system's, no read permission): nothing
    // at or below one is walked again, so a mount on NFS pays no failed walk per call
    int refused_count;
    size_t refused_len[REFUSED_MAX];
    char *refused[REFUSED_MAX];
};

// (every change of a local file system goes through this kernel, so through its inotify)
static bool watchable(int fd)
{
    struct statfs fs;
    if (fstatfs(fd, &fs) != 0)
        return false;
    switch ((unsigned long)fs.f_type) {
    case EXT4_SUPER_MAGIC:
    case XFS_SUPER_MAGIC:
    case BTRFS_SUPER_MAGIC:
    case TMPFS_MAGIC:
    case F2FS_SUPER_MAGIC:
    case OVERLAYFS_SUPER_MAGIC:
    case ZFS_SUPER_MAGIC:
        return true;
    default:
        return false;
    }
}

static int new_queue(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

static atomic_int queues; // kept_dirs of this process

struct kept_dirs *kept_dirs_new(void)
{
    const char *off = getenv("SPINDLE_MOUNT_KEPT_DIRS");
    if (off && strcmp(off, "0") == 0)
        return NULL;
    if (atomic_fetch_add(&queues, 1) >= QUEUES_MAX) {
        atomic_fetch_sub(&queues, 1);
        return NULL;
    }
    struct kept_dirs *kept = calloc(1, sizeof *kept);
    int queue = kept ? new_queue() : -1;
    if (queue < 0) { // (no inotify, or the user's instances are all taken)
        free(kept);
        atomic_fetch_sub(&queues, 1);
        return NULL;
    }
    kept->queue = queue;
    return kept;
}

static void forget(struct kept *k)
{
    close(k->fd);
    free(k->path);
    k->path = NULL;
}

// Drops every kept directory and every watch (the queue: made again at the next call).
static void drop_all(struct kept_dirs *kept)
{
    for (int i = 0; i < kept->count; i++)
        forget(&kept->dirs[i]);
    kept->count = 0;
    kept->watches = 0;
    if (kept->queue >= 0)
        close(kept->queue);
    kept->queue = -1;
}

void kept_dirs_drop(struct kept_dirs *kept)
{
    if (kept)
        drop_all(kept);
}

void kept_dirs_free(struct kept_dirs *kept)
{
    if (!kept)
        return;
    drop_all(kept);
    for (int i = 0; i < kept->refused_count && i < REFUSED_MAX; i++)
        free(kept->refused[i]);
    free(kept);
    atomic_fetch_sub(&queues, 1);
}

// Whether event e may concern a kept directory. A directory removed from a watched one matters
// only where one kept has its name (others' removals in a busy /tmp do not): a directory on the
// way to a kept one that is not kept itself cannot be removed before the kept one below it,
// which is then seen by its name, and a rename is IN_MOVE_SELF on the directory itself.
static bool changes_kept(const struct kept_dirs *kept, const struct inotify_event *e)
{
    if (e->len == 0)
        return true; // the watched directory itself, or the queue's own (IN_Q_OVERFLOW, IN_IGNORED)
    if (!(e->mask & IN_DELETE) || !(e->mask & IN_ISDIR))
        return false;
    size_t n = strnlen(e->name, e->len);
    for (int i = 0; i < kept->count; i++) {
        const struct kept *k = &kept->dirs[i];
        if (k->len > n && k->path[k->len - n - 1] == '/' && memcmp(k->path + k->len - n, e->name, n) == 0)
            return true;
    }
    return false;
}

// Whether no watched directory changed since the queue was last read: no event read (if any)
// changes_kept(). (An error reading means start afresh too.)
static bool nothing_changed(struct kept_dirs *kept)
{
    char events[4096] __attribute__((aligned(8)));
    for (;;) {
        ssize_t n = read(kept->queue, events, sizeof events);
        if (n < 0)
            return errno == EAGAIN;
        for (ssize_t at = 0; at < n;) {
            const struct inotify_event *e = (const void *)(events + at);
            if (changes_kept(kept, e))
                return false;
            at += (ssize_t)(sizeof *e + e->len);
        }
    }
}

static struct kept *find(struct kept_dirs *kept, const char *path, size_t len)
{
    for (int i = 0; i < kept->count; i++) {
        struct kept *k = &kept->dirs[i];
        if (k->len == len && memcmp(k->path, path, len) == 0)
            return k;
    }
    return NULL;
}

// Keeps fd as the directory path[0, len): takes the fd (closes it if it cannot keep it).
static void keep(struct kept_dirs *kept, const char *path, size_t len, int fd)
{
    char *copy = malloc(len);
    if (!copy) {
        close(fd);
        return;
    }
    memcpy(copy, path, len);
    struct kept *slot = &kept->dirs[kept->count];
    if (kept->count == KEPT_MAX) {
        slot = &kept->dirs[0];
        for (int i = 1; i < KEPT_MAX; i++)
            if (kept->dirs[i].used < slot->used)
                slot = &kept->dirs[i];
        forget(slot);
    } else {
        kept->count++;
    }
    *slot = (struct kept){.fd = fd, .len = len, .used = ++kept->clock, .path = copy};
}

// One plain name (NUL-terminated) in directory dirfd, opened O_PATH as a directory: no symlink,
// no "..", no magic link. The fd, or -errno.
static int open_name(int dirfd, const char *name)
{
    struct open_how how = {
        .flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    long fd = syscall(SYS_openat2, dirfd, name, &how, sizeof how);
    return fd < 0 ? -errno : (int)fd;
}

static bool same_dir(int fd, dev_t dev, ino_t ino)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

// Watches the directory fd is open on (through its /proc link, so the very directory): whether
// it is watched now.
static bool watch(struct kept_dirs *kept, int fd)
{
    char link[32];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    if (inotify_add_watch(kept->queue, link, WATCH_MASK) < 0)
        return false;
    kept->watches++;
    return true;
}

// Whether dir[0, len) is at or below a directory that could not be watched
static bool refused(const struct kept_dirs *kept, const char *dir, size_t len)
{
    if (kept->refused_count > REFUSED_MAX)
        return true; // (too many: none at all)
    for (int i = 0; i < kept->refused_count; i++) {
        size_t n = kept->refused_len[i];
        if (len >= n && memcmp(dir, kept->refused[i], n) == 0 && (n == 1 || len == n || dir[n] == '/'))
            return true;
    }
    return false;
}

static void refuse(struct kept_dirs *kept, const char *dir, size_t len)
{
    char *copy = kept->refused_count < REFUSED_MAX ? malloc(len) : NULL;
    if (copy) {
        memcpy(copy, dir, len);
        kept->refused[kept->refused_count] = copy;
        kept->refused_len[kept->refused_count] = len;
    }
    kept->refused_count++; // (past REFUSED_MAX, or out of memory: nothing kept any more)
    if (!copy && kept->refused_count <= REFUSED_MAX)
        kept->refused_count = REFUSED_MAX + 1;
}

// Opens, watches and records dir[0, len) name by name from the kept directory at base_len (0:
// from /), then walks it again and checks each name is still the directory watched. Keeps every
// directory on the way; the fd of the last (kept), or -1: a name on the way is missing or no
// directory (nothing else changes), one cannot be watched (remembered: refuse()), or something
// changed meanwhile (everything kept is dropped).
static int walk_and_keep(struct kept_dirs *kept, char *dir, size_t len, size_t base_len)
{
    struct link {
        dev_t dev;
        ino_t ino;
        size_t end;
    } chain[DEPTH_MAX];
    int fds[DEPTH_MAX];
    int depth = 0;
    struct kept *base = base_len ? find(kept, dir, base_len) : NULL;
    int at = base ? base->fd : open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (at < 0)
        return -1;
    struct stat st;
    enum { KEPT, ABSENT, REFUSED, CHANGED } outcome = KEPT;
    if (!base && !(watchable(at) && watch(kept, at))) {
        refuse(kept, "/", 1);
        outcome = REFUSED;
    }
    // first pass: open and watch each name below the base
    int prev = at;
    for (size_t i = base_len + 1; outcome == KEPT && i <= len;) {
        size_t end = i;
        while (end < len && dir[end] != '/')
            end++;
        if (depth == DEPTH_MAX) {
            outcome = ABSENT;
            break;
        }
        dir[end] = 0;
        int fd = open_name(prev, dir + i);
        dir[end] = end < len ? '/' : 0;
        if (fd < 0 || fstat(fd, &st) != 0) {
            if (fd >= 0)
                close(fd);
            outcome = ABSENT;
            break;
        }
        fds[depth] = fd;
        chain[depth] = (struct link){.dev = st.st_dev, .ino = st.st_ino, .end = end};
        depth++;
        if (!watchable(fd) || !watch(kept, fd)) {
            refuse(kept, dir, end);
            outcome = REFUSED;
        }
        prev = fd;
        i = end + 1;
    }
    // second pass, after every watch: the same directories under the same names (from the same
    // base: a kept fd, or / which only this process's own chroot could change)
    for (int d = 0; outcome == KEPT && d < depth; d++) {
        size_t start = d == 0 ? base_len + 1 : chain[d - 1].end + 1;
        dir[chain[d].end] = 0;
        int fd = open_name(d == 0 ? at : fds[d - 1], dir + start);
        dir[chain[d].end] = chain[d].end < len ? '/' : 0;
        if (fd < 0 || !same_dir(fd, chain[d].dev, chain[d].ino))
            outcome = CHANGED;
        if (fd >= 0)
            close(fd);
    }
    // (a change between the first pass's watch and the second pass's look is in the queue)
    if (outcome == KEPT && !nothing_changed(kept))
        outcome = CHANGED;
    if (!base)
        close(at); // (/ itself is watched, not kept)
    if (outcome != KEPT) {
        for (int d = 0; d < depth; d++)
            close(fds[d]);
        // (a missing name or a refused directory leaves the rest as it was: a watch of a
        // directory not kept can only drop the kept ones early)
        if (outcome == CHANGED)
            drop_all(kept);
        return -1;
    }
    for (int d = 0; d < depth; d++)
        keep(kept, dir, chain[d].end, fds[d]);
    struct kept *last = find(kept, dir, len);
    return last ? last->fd : -1;
}

// The kept directory dir[0, len) (at or below the mount's root), walked from the nearest kept one
// above it where it is not kept yet: its fd, or -1.
static int kept_dir(struct kept_dirs *kept, char *dir, size_t len)
{
    struct kept *k = find(kept, dir, len);
    if (k) {
        k->used = ++kept->clock;
        return k->fd;
    }
    if (refused(kept, dir, len))
        return -1;
    if (kept->watches > WATCHES_MAX)
        drop_all(kept);
    if (kept->queue < 0 && (kept->queue = new_queue()) < 0)
        return -1;
    size_t base_len = len; // (the nearest kept directory above, 0 for none: from /)
    do {
        base_len--;
        while (base_len > 0 && dir[base_len] != '/')
            base_len--;
    } while (base_len > 0 && !find(kept, dir, base_len));
    return walk_and_keep(kept, dir, len, base_len);
}

int kept_parent(struct kept_dirs *kept, const char *path, size_t root_len, const char **name)
{
    if (!kept)
        return -1;
    const char *slash = strrchr(path, '/');
    size_t dir_len = (size_t)(slash - path);
    // (the root itself: its parent is outside; / is never a mount's root)
    if (dir_len == 0 || dir_len < root_len || dir_len >= PATH_MAX)
        return -1;
    if (kept->queue >= 0 && !nothing_changed(kept))
        drop_all(kept);
    char dir[PATH_MAX];
    memcpy(dir, path, dir_len);
    dir[dir_len] = 0;
    *name = slash + 1;
    return kept_dir(kept, dir, dir_len);
}
