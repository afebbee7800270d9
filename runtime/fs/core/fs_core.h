/* THE CORE LAYER of runtime/fs (docs/FILESYSTEM.md, "Layers"): the objects every other layer
 * builds on. It offers the filesystem's memory, file contents, inodes and the table each kind of
 * inode brings, permissions, memory files, directories, path walking, the open files and the fd
 * table, lock-free readers and the lock sets of rename. Nothing here includes a header of the
 * layers above (special/, mount/, ops/).
 *
Internal data structures of the in-memory filesystem.
 *
 * LOCK ORDER (see docs/FILESYSTEM.md for the reasoning). A thread acquires
 * locks only in this order and releases them before going back up:
 *   1. open-file position lock (open_file.pos_lock), one at a time
 *   2. fs_rename_mutex (only cross-directory rename)
 *   3. directory inode locks, several only in increasing inode number
 *      (lock_set.c: rename and rmdir)
 *   4. at most one non-directory inode lock, innermost (a mount's open
 *      file's lock is held across its backend calls: remote_file.c)
 *   4b. a mount's table of open files' mutex (remote_file.c), a leaf: taken
 *      with no other lock held, nothing taken under it
 *   4c. a pipe's mutex (pipe.c), a leaf guarding its ring and end counts
 *      (its inode lock guards only what fstat reads); a blocked reader or
 *      writer waits on the pipe's condition with nothing else held
 *   4d. an inode's lock table mutex (file_lock.c), a leaf; F_SETLKW waits on
 *      its condition with nothing else held
 *   4e. the poll mutex (fs_poll.c), a leaf: pipes notify it after
 *      releasing their own mutex
 *   5. fd table locks (fd_alloc.lock before a stripe lock), never held while
 *      taking any of the above
 * Path walking holds at most one inode lock at a time (hand over hand with
 * references instead of locks).
 */
#ifndef SPINDLE_FS_CORE_H
#define SPINDLE_FS_CORE_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* rwlocks and clock_gettime under -std=c11 */
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../include/spindle/fs.h"
#include "../../include/spindle/mount.h"

/* ---- memory (fs_memory.c) ---- */
void *fs_malloc(size_t size);
void *fs_calloc(size_t count, size_t size);
void *fs_realloc(void *ptr, size_t size);
void fs_free(void *ptr);

/* ---- file contents (file_data.c) ---- */
#define FS_CHUNK_SHIFT 12
#define FS_CHUNK_SIZE ((int64_t)1 << FS_CHUNK_SHIFT)
#define FS_NODE_SHIFT 9 /* 512 pointers per index node */
#define FS_NODE_FANOUT (1 << FS_NODE_SHIFT)
#define FS_MAX_DEPTH 4
#define FS_MAX_FILE_SIZE ((int64_t)1 << (FS_CHUNK_SHIFT + FS_NODE_SHIFT * FS_MAX_DEPTH))

/* A radix tree of fixed-size chunks: depth 0 means `root` is the chunk for
 * offset 0; depth d means it is an index node covering 512^d chunks. Missing
 * chunks are holes and read as zeros.
 * Small files: while the whole file fits in chunk 0 at depth 0, that chunk
 * is only as large as needed (a power of two from 64 bytes, `small_cap`), so
 * 100,000 tiny files do not cost 400 MB. It doubles up to a full chunk,
 * copying at most 4 KiB in the file's whole life; larger files never copy. */
struct file_data {
    void *root;
    int depth;
    uint32_t small_cap; /* capacity of a small chunk 0; 0 = full size */
    int64_t chunk_count;
    int64_t bytes_allocated; /* for st_blocks */
    int64_t chunk_end;       /* past the highest chunk a slot was made for: frees scan below it */
};

/* Writes len bytes at offset, allocating chunks as needed. Returns the number
 * of bytes written (short only when memory ran out), or -ENOSPC if nothing
 * could be written. */
int64_t file_data_write(struct file_data *data, int64_t offset, const void *src, size_t len);
/* Copies [offset, offset+len) into dst; holes give zeros. */
void file_data_read(const struct file_data *data, int64_t offset, void *dst, size_t len);
/* Drops everything at or past new_size (old_size is the current size). */
void file_data_truncate(struct file_data *data, int64_t old_size, int64_t new_size);
void file_data_free(struct file_data *data);

/* ---- inodes (inode.c) ---- */
/* The kinds of inode: the memory tree's files, directories, symlinks, pipes and devices, and
 * the open files and directories of a mount (remote_file.c, remote_dir.c). */
enum inode_type {
    INODE_FILE = 1,
    INODE_DIR,
    INODE_SYMLINK,
    INODE_REMOTE_FILE,
    INODE_REMOTE_DIR,
    INODE_PIPE,
    INODE_DEVICE,
    INODE_TYPE_COUNT
};

/* A pipe's state (pipe.c): a ring of `capacity` bytes (SPINDLE_PIPE_CAPACITY until
 * F_SETPIPE_SZ changes it). Readers and writers count the open file descriptions of each end. */
struct pipe_data {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* broadcast when data, room or an end goes away */
    uint8_t *ring;
    size_t capacity, head, used;
    uint32_t readers, writers;
};

/* Character devices of /dev (device.c). */
enum device_kind {
    DEV_NULL = 1,
    DEV_ZERO,
    DEV_FULL,
    DEV_RANDOM,
    DEV_URANDOM,
    DEV_STDIN,
    DEV_STDOUT,
    DEV_STDERR /* the host's stdio (proc_fd.c) */
};

struct lock_table; /* file_lock.c */
struct open_file;  /* fd_table.c */

struct dir_entry;
struct inode;
struct fs_mount;

struct dir_data {
    struct dir_entry **buckets; /* hash chains, by name */
    size_t bucket_count;
    size_t entry_count;
    struct dir_entry **order; /* by increasing seq; NULL = removed slot */
    size_t order_len, order_cap, order_holes;
    uint64_t next_seq;
    struct inode *parent; /* counted reference; NULL for the root */
    bool dead;            /* removed by rmdir or replaced by rename */
    /* non-NULL: a mount point; set once (mount.c), read without the lock */
    struct fs_mount *_Atomic mount;
    /* non-NULL: a directory whose names a layer above makes up, found by this call instead of
     * the entries (/proc/self/fd: proc_fd.c); set once at init */
    int (*listing_lookup)(const char *name, size_t len, struct inode **out);
};

/* A file of a mount, open in this module (remote_file.c): shared by every description open on
 * the same backend file (same mount and backend ino), so its read cache is coherent inside the
 * module. The cache is guarded by the inode's lock. */
struct remote_file {
    struct fs_mount *mount;
    uint64_t backend_ino;
    struct inode *hash_next; /* chain of the mount's table of open files */
    /* read-ahead: clean bytes [roff, roff+rlen) */
    uint8_t *rbuf;
    size_t rcap, rlen;
    int64_t roff;
};

/* A directory of a mount, open in this module (remote_dir.c): one per open, so that it can
 * serve as the dirfd of the *at calls. Immutable once made. */
struct remote_dir {
    struct fs_mount *mount;
    uint64_t backend_ino;
    char *rel; /* the path inside the mount ("" = its root) */
    size_t rel_len;
};

struct inode_ops;

/* How many loads a waiter spins before it sleeps or yields: about 2-5 us in wasm, longer than a
 * create or an unlink holds a directory or a walker holds a reader slot, shorter than a futex
 * sleep and wake or a sched_yield, which in wasm is a call out to the host. */
#define FS_SPINS 2000

/* A reader-writer lock that spins FS_SPINS loads before it sleeps (rw_lock.c); zero is
 * unlocked. */
struct rw_lock {
    _Atomic uint32_t state;
};
void rw_lock_read(struct rw_lock *lock);
void rw_lock_write(struct rw_lock *lock);
void rw_lock_unlock(struct rw_lock *lock);

struct inode {
    struct rw_lock lock;
    const struct inode_ops *ops; /* its kind's table, fixed by inode_new */
    atomic_uint_fast32_t refs; /* dir entries + open files + walkers + child dirs */
    uint64_t ino;
    uint8_t type;
    bool pinned;                /* the root: never freed, so its references are not counted */
    uint32_t perm;              /* written under lock (chmod), atomically: checks read it without */
    uint32_t uid, gid;          /* the same (chown); the program's ids when made */
    uint64_t nlink;             /* under lock */
    int64_t size;               /* under lock */
    _Atomic int64_t atime_ns;   /* atomic: reads update it under a shared lock */
    atomic_bool writing;        /* files, directories: a writer holds the lock (reader_slots.c) */
    struct reader_slot *_Atomic sole_reader; /* files, directories: the first lock-free reader's slot */
    atomic_bool many_readers;   /* files, directories: another slot has read it lock-free too */
    int64_t mtime_ns, ctime_ns; /* under lock */
    union {
        struct file_data file;
        struct dir_data dir;
        struct {
            char *target; /* immutable after creation */
            size_t len;
            /* a magic link of /proc/self/fd: following it jumps to this
             * inode (counted reference) instead of resolving `target` */
            struct inode *magic;
        } symlink;
        struct remote_file remote_file;
        struct remote_dir remote_dir;
        struct pipe_data pipe;
        enum device_kind device;
    } u;
    /* advisory locks; NULL until the first lock (file_lock.c) */
    struct lock_table *_Atomic locks;
};

/* What an inode of each kind does, above all once open: one table per kind, as WasmFS's
 * backends. The calls of ops_*.c check the fd, its access mode and the arguments, then call
 * through inode->ops; where an entry is NULL they give the answer noted. */
struct inode_ops {
    /* SPINDLE_S_IFREG, _IFDIR, _IFLNK, _IFIFO or _IFCHR. A FIFO has no position (pread and
     * lseek: ESPIPE) and a character device has none of its own: it gets pread's offset or -1,
     * which only stdio's host uses; the others read and write at it. */
    uint32_t format;
    /* A mount's (the backend has the file): its descriptions hold a backend handle, only a
     * walk through the mount opens it (not /proc/self/fd), it has no path in the memory
     * tree, and chown gives EPERM (chmod goes to the backend: set_mode). */
    bool in_backend;
    /* At `offset` (the position or pread's); NULL: EISDIR. */
    int64_t (*read)(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t offset,
                    int64_t total);
    /* *offset: in, where; out, where the data went (O_APPEND moves it). NULL: EISDIR. */
    int64_t (*write)(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t *offset,
                     int64_t total);
    int (*fstat)(struct open_file *file, struct spindle_stat *st); /* NULL: the inode's fields */
    /* lseek's new position or -errno; NULL: the description's position (a FIFO: ESPIPE) */
    int64_t (*seek)(struct open_file *file, int64_t offset, int whence);
    int (*truncate)(struct open_file *file, int64_t length);       /* NULL: EINVAL */
    /* Grows the file to at least `end`. NULL: EISDIR, ESPIPE or ENODEV, by format. */
    int (*allocate)(struct open_file *file, int64_t end);
    int (*sync)(struct open_file *file, int datasync); /* NULL: nothing to write out */
    /* times valid, not both UTIME_OMIT; NULL: the inode's fields (inode_set_times) */
    int (*set_times)(struct open_file *file, const struct spindle_timespec times[2]);
    /* fchmod's permission bits (& 07777); NULL: the inode's field, or EPERM when in_backend */
    int (*set_mode)(struct open_file *file, uint32_t mode);
    int (*readdir)(struct open_file *file, uint64_t cookie, struct spindle_dirent *out,
                   int max); /* NULL: ENOTDIR */
    int (*close)(struct open_file *file);    /* close(2) of an fd of it; NULL: nothing to do */
    void (*release)(struct open_file *file); /* a description's last reference; NULL: nothing */
    /* The inode's last reference: frees what its `u` holds. Returns an inode to release next
     * (a directory's parent), so that a long chain needs no recursion; NULL: nothing to free. */
    struct inode *(*free)(struct inode *inode);
};

/* the tables, in the files of their kinds (pipe_ops is weak: see "pipes" below) */

/* the tables of the core's own kinds; the others are in their layers' headers */
extern const struct inode_ops mem_file_ops, symlink_ops;

/* The time file stamps take: stamp_clock_ns(), but never behind a stamp time given before, by
 * any thread (inode.c). */
int64_t fs_now_ns(void);
/* A reading of the wall clock in ns for file stamps (stamp_clock.c): coarse, never ahead. */
int64_t stamp_clock_ns(void);
/* Whether stamp_clock_ns() may now read more than STAMP_LAG_MAX_NS behind `seen_ns`, a time
 * the program already saw (stamp_clock.c): only a clock kept by the host can fall behind. */
bool stamp_clock_lags(int64_t seen_ns);
#define STAMP_LAG_MAX_NS 5000000 /* above a browser's 4 ms timer and Linux's 1-4 ms tick */
/* New inode with one reference, nlink 0, timestamps now; `ops` is its kind's table, which the
 * kind's own file passes (the core knows no kind above it). NULL if out of memory. */
struct inode *inode_new(enum inode_type type, const struct inode_ops *ops, uint32_t perm);
void inode_ref(struct inode *inode);
/* A reference to an inode that may be on its way to being freed (a walker's slot holds it):
 * false if its count had already reached zero. */
bool inode_ref_if_live(struct inode *inode);
void inode_unref(struct inode *inode);
void inode_fill_stat(struct inode *inode, struct spindle_stat *st); /* caller holds lock */
/* times: valid, each a time, UTIME_NOW or UTIME_OMIT (spindle_fs_futimens checks them) */
void inode_set_times(struct inode *inode, const struct spindle_timespec times[2]);
/* atime, mtime and ctime as given, and the permission bits unless mode is SPINDLE_MODE_KEEP */
void inode_restore_attrs(struct inode *inode, uint32_t mode, const struct spindle_timespec times[3]);
/* relatime: atime moves only when it is not newer than mtime or ctime, or a
 * day old (as Linux's default). Safe under a shared lock. */
void inode_touch_atime(struct inode *inode);
void inode_read_lock(struct inode *inode);
/* On a file or directory, also waits for the lock-free readers or walkers in it to finish
 * (reader_slots.c). */
void inode_write_lock(struct inode *inode);
void inode_unlock(struct inode *inode);

/* ---- permissions (permission.c) ---- */
#define FS_MAY_EXEC 1
#define FS_MAY_WRITE 2
#define FS_MAY_READ 4
/* 0 if the caller may do `want` (FS_MAY_* bits) to the inode, else -SPINDLE_EACCES; needs no
 * lock. Always 0 for a program linked --as-root. */
int fs_permission(const struct inode *inode, int want);
/* The same for a file the program owns whatever it stores (a mount's): the owner's bits of mode */
int fs_owner_permission(uint32_t mode, int want);
/* chmod, utimens with explicit times: 0 for the owner (or root), else -SPINDLE_EPERM */
int fs_owner_check(const struct inode *inode);
/* chown: an ordinary owner may set only its own uid and group; -SPINDLE_EPERM otherwise */
int fs_chown_check(const struct inode *inode, uint32_t uid, uint32_t gid);
/* a new inode belongs to the program (inode_new) */
void fs_set_owner_to_caller(struct inode *inode);

/* ---- regular files in memory (mem_file.c) ---- */
#define MAX_RW_COUNT ((int64_t)0x7ffff000) /* Linux's cap on one read or write */
/* Copies file bytes from offset into iov, up to the size, and touches atime; the caller keeps
 * writers out (a shared lock or a reader slot). Returns the bytes copied. */
int64_t mem_file_copy_out(struct inode *inode, const struct spindle_iovec *iov, int iovcnt, int64_t offset);
/* ftruncate and O_TRUNC: takes the write lock */
void mem_file_truncate(struct inode *inode, int64_t length);

/* ---- lock-free reads of files and walks of directories (reader_slots.c) ---- */
struct reader_slot;
/* The calling thread's slot; NULL if every slot is taken (then read through locks). */
struct reader_slot *reader_slot_mine(void);
/* Holds fd's open file if it is a regular file (the slot keeps it from being freed); NULL
 * otherwise, with nothing held. */
struct open_file *reader_slot_hold_fd(struct reader_slot *slot, int fd);
/* fd's open file, of any type, for a short look that never blocks: held in the caller's reader slot where it
 * can be (no lock taken, no reference counted: the one WASI preopen is every thread's dirfd),
 * else referenced through the fd table; NULL for a bad fd. *held_in: the slot, or NULL. Give
 * it back with description_put. */
struct open_file *description_get(int fd, struct reader_slot **held_in);
void description_put(struct open_file *file, struct reader_slot *held_in);
/* Holds the inode; false if a writer has it: then clear the slot and take the locks. A reader
 * must not block while it holds an inode (a writer waits for it). */
bool reader_slot_hold_inode(struct reader_slot *slot, struct inode *inode);
void reader_slot_clear(struct reader_slot *slot);
/* Return once no reader holds the file / the inode in its slot. */
void reader_slots_wait_file(struct open_file *file);
void reader_slots_wait_inode(struct inode *inode);
/* Before an inode is freed: return once no slot holds it, recorded as its reader or not. */
void reader_slots_wait_inode_unheld(const struct inode *inode);

/* ---- directories (directory.c); callers hold the directory's lock ---- */
struct dir_entry {
    struct dir_entry *hash_next;
    struct inode *inode; /* counted reference */
    uint64_t seq;        /* its readdir cookie: a listing goes on with older entries */
    uint32_t hash;
    uint16_t name_len;
    char name[];
};

#define DIR_FIRST_SEQ 3 /* cookies 1 and 2 are "." and ".." */

int dir_init(struct dir_data *dir, struct inode *parent);
struct dir_entry *dir_find(struct dir_data *dir, const char *name, size_t len);
struct dir_entry *dir_entry_new(const char *name, size_t len, struct inode *inode);
/* Makes room so that the next dir_insert cannot fail. 0 or -ENOSPC. */
int dir_reserve(struct dir_data *dir);
void dir_insert(struct dir_data *dir, struct dir_entry *entry);
/* Unlinks and frees the entry; its inode reference passes to the caller. */
void dir_remove(struct dir_data *dir, struct dir_entry *entry);
/* A name was added or removed at `now` (dir's mtime and ctime). `now` may be read before the
 * lock is taken, to keep the clock (a host call in wasm) out of the critical section: a time
 * stored meanwhile by a change that locked later is kept, so the times never go back. */
void dir_touch(struct inode *dir, int64_t now);
/* Index in dir->order of the first slot whose seq is greater than `seq`. */
size_t dir_first_after(const struct dir_data *dir, uint64_t seq);
void dir_free(struct dir_data *dir);

/* ---- path resolution (path.c) ---- */
enum last_type { LAST_NORM, LAST_DOT, LAST_DOTDOT, LAST_ROOT };

#define WALK_PARENT 1 /* stop before the last component */
#define WALK_FOLLOW 2 /* follow a symlink in the last component */

struct walk {
    int hops;             /* symlinks followed so far (in/out) */
    struct inode *dir;    /* WALK_PARENT: directory holding the last component */
    struct inode *node;   /* otherwise: the inode found */
    const char *name;     /* WALK_PARENT: last component, in the path or `buffer` */
    size_t name_len;
    enum last_type last;
    bool trailing_slash;
    char *buffer; /* allocated once a symlink is followed */
    /* The path ended inside a mount: `mount` is set, w->dir/w->node are
     * NULL and `rel` (allocated) is the normalized path inside it; w->last
     * and w->trailing_slash describe the last component; `follow` says
     * whether a final symlink is to be followed (WALK_FOLLOW or a slash). */
    struct fs_mount *mount;
    char *rel;
    size_t rel_len;
    bool follow;
};

struct inode *fs_root(void);
/* the root directory, made by spindle_fs_init (ops/fs_init.c) before any walk */
void path_set_root(struct inode *root);
/* Resolves path from start (a directory, or any inode for absolute paths).
 * On success holds references in w->dir / w->node; release with walk_done.
 * w->name may point into `path`, which must outlive the walk. */
int path_walk(struct inode *start, const char *path, int how, struct walk *w);
/* After SPINDLE_MOUNT_FOLLOW on w (a walk with `how`, not WALK_PARENT): w released and walked
 * again from where the path continues (mount_follow_start). */
int path_walk_follow(struct walk *w, int how);
void walk_done(struct walk *w);
/* Reference to the parent of directory dir (the root is its own parent). */
struct inode *dir_parent_ref(struct inode *dir);
/* Resolves dirfd (or SPINDLE_AT_FDCWD) into a referenced start directory. */
int start_dir(int dirfd, const char *path, struct inode **out);
/* path_walk from dirfd (start_dir); w is zeroed first. */
int path_walk_at(int dirfd, const char *path, int how, struct walk *w);

/* ---- open files and the fd table (fd_table.c) ---- */
struct open_file {
    atomic_uint_fast32_t refs;
    uint64_t handle;     /* a mount's file or directory: the backend's handle */
    struct inode *inode; /* counted reference */
    int access;          /* O_RDONLY / O_WRONLY / O_RDWR, fixed */
    atomic_int status;   /* O_APPEND | O_NONBLOCK | O_*SYNC, changeable */
    pthread_mutex_t pos_lock;
    int64_t pos;
    /* an open of /dev/stdout & co. whose host fd is a regular file: reads and writes at pos, as
     * Linux's new open of that file (proc_fd.c); a duplicate of stdio uses the host fd's offset */
    bool own_position;
};

struct open_file *open_file_new(struct inode *inode, int flags); /* takes the inode ref */
void open_file_unref(struct open_file *file);
bool open_file_readable(const struct open_file *file);
bool open_file_writable(const struct open_file *file);
/* fstat of a description, through its inode's table */
int open_file_stat(struct open_file *file, struct spindle_stat *st);

/* Lowest free fd, held reserved until fd_install / fd_unreserve. */
int fd_reserve(void);
/* The same, but the lowest free fd >= min (F_DUPFD). */
int fd_reserve_from(int min);
void fd_install(int fd, struct open_file *file);
void fd_unreserve(int fd);
/* Referenced open file for fd, or NULL (EBADF). */
struct open_file *fd_get(int fd);
/* The open file at fd now, without a reference, or NULL: only for lock-free readers, who hold it
 * in their reader slot and then check that fd_peek still returns it. */
struct open_file *fd_peek(int fd);
/* Detaches fd; returns the file that was there (the table's reference). */
struct open_file *fd_detach(int fd);
/* Atomically makes newfd refer to file (taking a new reference); returns the
 * file that newfd held, or NULL. */
int fd_replace(int newfd, struct open_file *file, struct open_file **old);

/* ---- several directory locks at once (lock_set.c) ---- */
struct lock_set {
    struct inode *items[4]; /* sorted by ino; each holds a reference; callers
                               add at most 4 (two parents, source, target) */
    int count;
};
bool lock_set_has(const struct lock_set *set, const struct inode *inode);
void lock_set_add(struct lock_set *set, struct inode *inode); /* NULL and repeats ignored */
void lock_set_lock(struct lock_set *set);   /* write-locks in increasing ino */
void lock_set_unlock(struct lock_set *set);
void lock_set_release(struct lock_set *set); /* drops the references */

/* ---- what the layers above lend the core and the layers below them (upper_calls.c) ----
 * A lower layer never calls up by name: the layer above registers its calls before anything
 * can need them, so the order of the layers holds in the code as in the folders. */

/* Advisory locks (special/file_lock.c), registered before it makes an inode's first lock table:
 * the core calls these only where inode->locks is set. */
struct lock_release_calls {
    void (*release_description)(struct open_file *file); /* its last reference: OFD, flock locks */
    void (*free)(struct inode *inode);                   /* the inode's last reference */
};
extern const struct lock_release_calls *_Atomic fs_lock_release;
void fs_lend_lock_release(const struct lock_release_calls *calls);

/* Mounts (mount/), registered before the first directory becomes a mount point: the walk hands
 * the rest of a path to `walk` at a mount entry (inode_is_mount_entry), and path_walk_follow asks
 * `follow_start` where to go on. Both are declared, and explained, in mount/fs_mount.h. */
#define MOUNT_WALK_ESCAPED 1
/* Where the path walk hands over to a mount (mount_walk through fs_mount_calls): a mount point
 * or an open directory of a mount (a dirfd). */
static inline bool inode_is_mount_entry(const struct inode *inode)
{
    return inode->type == INODE_REMOTE_DIR ||
           (inode->type == INODE_DIR &&
            atomic_load_explicit(&inode->u.dir.mount, memory_order_acquire) != NULL);
}
struct walk_mount_calls {
    int (*walk)(struct walk *w, struct inode **cur, const char **rest, int how);
    int (*follow_start)(struct walk *w, struct inode **from, char **path);
};
extern const struct walk_mount_calls *_Atomic fs_mount_calls;
void fs_lend_mount_calls(const struct walk_mount_calls *calls);

/* The namespace calls programs make (ops/), registered by spindle_fs_init before it makes /dev
 * and /proc (special/) or the host's mounts (mount/): those are made as a program would make
 * them, checks and errors included. */
struct tree_calls {
    int (*mkdirat)(int dirfd, const char *path, uint32_t mode);
    int (*symlinkat)(const char *target, int dirfd, const char *path);
    int (*fchmodat)(int dirfd, const char *path, uint32_t mode, int flags);
};
extern const struct tree_calls *_Atomic fs_tree_calls;
void fs_lend_tree_calls(const struct tree_calls *calls);

#endif
