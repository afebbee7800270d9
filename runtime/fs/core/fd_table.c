/* The process-wide fd table and open file descriptions.
 * Slots 0-2 stay empty (the host's stdio) until dup2/dup3 puts a description there; new fds
 * are handed out from SPINDLE_FS_FIRST_FD up.
 * A slot is read under one of FD_STRIPES mutexes (fd % FD_STRIPES), so
 * threads using different fds rarely meet; slots change only under
 * fd_alloc.lock plus the slot's stripe (but a reserved slot, which its reserver fills under the
 * stripe alone: fd_install). Taking the file's reference inside the
 * stripe lock is what keeps a concurrent close from freeing it under us.
 * Lock-free readers (reader_slots.c) read a slot without the stripe: slots are
 * atomic, and a description is freed only once no reader slot holds it. */
#include "fs_core.h"

#include <string.h>

#define FD_STRIPES 64

/* Neighbouring fds (3, 4, 5...: each thread's lowest free one) live on different cache lines,
 * so one thread's open or close does not evict the slot another thread reads on every call:
 * fd f sits in row f % FD_SLOT_ROWS, column f / FD_SLOT_ROWS, one row per line. */
#define FD_SLOTS_PER_LINE (64 / sizeof(void *))
#define FD_SLOT_ROWS (SPINDLE_FS_MAX_FDS / FD_SLOTS_PER_LINE)
_Static_assert(SPINDLE_FS_MAX_FDS % (64 / sizeof(void *)) == 0, "whole cache lines of slots");
static _Alignas(64) struct open_file *_Atomic slots[SPINDLE_FS_MAX_FDS];

static struct open_file *_Atomic *slot_of(int fd) /* fd is in range: unsigned math is cheaper */
{
    size_t f = (size_t)fd;
    return &slots[f % FD_SLOT_ROWS * FD_SLOTS_PER_LINE + f / FD_SLOT_ROWS];
}
static struct open_file reserved_marker; /* slot taken, file not yet installed */
/* Written by every open and close: alone on its cache line, away from what every call reads.
 * The lock spins before it sleeps (rw_lock.c, taken only exclusively): it is held for a scan
 * of a few slots, far less than a sleep and wake in V8's futex emulation, which a pthread
 * mutex's short spin led to when threads opened and closed files at once. */
static struct {
    _Alignas(64) struct rw_lock lock;
    int lowest_free_hint;
} fd_alloc = {{0}, SPINDLE_FS_FIRST_FD};
/* One cache line per stripe: neighbouring fds, used by different threads, must not share
 * the line that every read and write locks. */
struct fd_stripe {
    _Alignas(64) pthread_mutex_t lock;
};
/* Initialized statically: a pthread_once on every fd lookup cost 2% of a small write. */
#define STRIPE_INIT {PTHREAD_MUTEX_INITIALIZER}
#define STRIPES_INIT_4 STRIPE_INIT, STRIPE_INIT, STRIPE_INIT, STRIPE_INIT
#define STRIPES_INIT_16 STRIPES_INIT_4, STRIPES_INIT_4, STRIPES_INIT_4, STRIPES_INIT_4
_Static_assert(FD_STRIPES == 64, "the initializer below names 64 stripes");
static struct fd_stripe stripes[FD_STRIPES] = {STRIPES_INIT_16, STRIPES_INIT_16, STRIPES_INIT_16,
                                               STRIPES_INIT_16};

static pthread_mutex_t *stripe_of(int fd) { return &stripes[fd % FD_STRIPES].lock; }

/* Callers hold fd_alloc.lock, except fd_install: see there. */
static void set_slot(int fd, struct open_file *file)
{
    pthread_mutex_t *stripe = stripe_of(fd);
    pthread_mutex_lock(stripe);
    *slot_of(fd) = file;
    pthread_mutex_unlock(stripe);
}

struct open_file *open_file_new(struct inode *inode, int flags)
{
    struct open_file *file = fs_malloc(sizeof *file);
    if (file == NULL)
        return NULL;
    if (pthread_mutex_init(&file->pos_lock, NULL) != 0) {
        fs_free(file);
        return NULL;
    }
    atomic_init(&file->refs, 1);
    file->inode = inode;
    file->handle = 0;
    file->access = flags & SPINDLE_O_ACCMODE;
    atomic_init(&file->status,
                flags & (SPINDLE_O_APPEND | SPINDLE_O_NONBLOCK | SPINDLE_O_SYNC | SPINDLE_O_DSYNC));
    file->pos = 0;
    file->own_position = false;
    return file;
}

int open_file_stat(struct open_file *file, struct spindle_stat *st)
{
    if (file->inode->ops->fstat)
        return file->inode->ops->fstat(file, st);
    inode_read_lock(file->inode);
    inode_fill_stat(file->inode, st);
    inode_unlock(file->inode);
    return 0;
}

void open_file_unref(struct open_file *file)
{
    if (atomic_fetch_sub_explicit(&file->refs, 1, memory_order_acq_rel) != 1)
        return;
    reader_slots_wait_file(file);
    if (file->inode) { /* NULL: openat failed before it had one */
        if (file->inode->ops->release)
            file->inode->ops->release(file);
        if (atomic_load_explicit(&file->inode->locks, memory_order_acquire) != NULL) /* file_lock.c lent */
            atomic_load_explicit(&fs_lock_release, memory_order_relaxed)->release_description(file);
        inode_unref(file->inode);
    }
    pthread_mutex_destroy(&file->pos_lock);
    fs_free(file);
}

bool open_file_readable(const struct open_file *file) { return file->access != SPINDLE_O_WRONLY; }
bool open_file_writable(const struct open_file *file) { return file->access != SPINDLE_O_RDONLY; }

int fd_reserve(void) { return fd_reserve_from(SPINDLE_FS_FIRST_FD); }

int fd_reserve_from(int min)
{
    if (min < SPINDLE_FS_FIRST_FD) /* 0-2 are the host's until a dup2 names one */
        min = SPINDLE_FS_FIRST_FD;
    rw_lock_write(&fd_alloc.lock);
    int fd = min > fd_alloc.lowest_free_hint ? min : fd_alloc.lowest_free_hint;
    while (fd < SPINDLE_FS_MAX_FDS && *slot_of(fd) != NULL)
        fd++;
    if (fd >= SPINDLE_FS_MAX_FDS) {
        rw_lock_unlock(&fd_alloc.lock);
        return -SPINDLE_EMFILE;
    }
    set_slot(fd, &reserved_marker);
    if (min <= fd_alloc.lowest_free_hint) /* else fds below min may still be free */
        fd_alloc.lowest_free_hint = fd + 1;
    rw_lock_unlock(&fd_alloc.lock);
    return fd;
}

/* Without fd_alloc.lock: the slot holds the reserved marker, which only its reserver replaces
 * (fd_detach and fd_replace leave a reserved slot alone, and the allocation scan asks only
 * whether a slot is empty), so every open takes the process-wide lock once, not twice. */
void fd_install(int fd, struct open_file *file) { set_slot(fd, file); }

static void release_slot(int fd) /* caller holds fd_alloc.lock */
{
    set_slot(fd, NULL);
    if (fd < fd_alloc.lowest_free_hint && fd >= SPINDLE_FS_FIRST_FD)
        fd_alloc.lowest_free_hint = fd;
}

void fd_unreserve(int fd)
{
    rw_lock_write(&fd_alloc.lock);
    release_slot(fd);
    rw_lock_unlock(&fd_alloc.lock);
}

struct open_file *fd_get(int fd)
{
    if (fd < 0 || fd >= SPINDLE_FS_MAX_FDS)
        return NULL;
    pthread_mutex_t *stripe = stripe_of(fd);
    pthread_mutex_lock(stripe);
    struct open_file *file = *slot_of(fd);
    if (file == &reserved_marker)
        file = NULL;
    if (file)
        atomic_fetch_add_explicit(&file->refs, 1, memory_order_relaxed);
    pthread_mutex_unlock(stripe);
    return file;
}

struct open_file *fd_peek(int fd)
{
    if (fd < 0 || fd >= SPINDLE_FS_MAX_FDS)
        return NULL;
    struct open_file *file = *slot_of(fd);
    return file == &reserved_marker ? NULL : file;
}

struct open_file *fd_detach(int fd)
{
    if (fd < 0 || fd >= SPINDLE_FS_MAX_FDS)
        return NULL;
    rw_lock_write(&fd_alloc.lock);
    struct open_file *file = *slot_of(fd); /* changes only under this lock (a reserved one aside) */
    if (file == &reserved_marker || file == NULL) {
        rw_lock_unlock(&fd_alloc.lock);
        return NULL;
    }
    release_slot(fd);
    rw_lock_unlock(&fd_alloc.lock);
    return file;
}

int fd_replace(int newfd, struct open_file *file, struct open_file **old)
{
    if (newfd < 0 || newfd >= SPINDLE_FS_MAX_FDS)
        return -SPINDLE_EBADF;
    rw_lock_write(&fd_alloc.lock);
    struct open_file *previous = *slot_of(newfd);
    if (previous == &reserved_marker) { /* an open in flight owns it (Linux: EBUSY) */
        rw_lock_unlock(&fd_alloc.lock);
        return -SPINDLE_EBUSY;
    }
    atomic_fetch_add_explicit(&file->refs, 1, memory_order_relaxed);
    set_slot(newfd, file);
    rw_lock_unlock(&fd_alloc.lock);
    *old = previous;
    return 0;
}

bool spindle_fs_fd_in_table(int fd) { return fd_peek(fd) != NULL; }
