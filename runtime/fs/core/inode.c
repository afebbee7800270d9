/* Inode lifetime, locking and timestamps. An inode lives while anything
 * refers to it: directory entries, open files, path walkers and (for
 * directories) child directories' parent pointers. */
#include "fs_core.h"

#include <string.h>

/* Each on a cache line of its own: every create writes next_ino, and every read loads
 * recent_now, which must not bounce with it. */
static struct {
    _Alignas(64) atomic_uint_fast64_t value;
} next_ino = {1};
/* The latest time fs_now_ns gave, so that reads can skip the clock (a host call in wasm) when
 * atime cannot need an update, and so that no thread stamps a time behind another's: each
 * worker's stamp clock is an earlier reading of its own, which another worker may have passed. */
static struct {
    _Alignas(64) _Atomic int64_t ns;
} recent_now = {0};

/* Moves recent_now up to `ns` if it is behind; returns the later of the two. */
static int64_t raise_recent_now(int64_t ns)
{
    int64_t latest = atomic_load_explicit(&recent_now.ns, memory_order_relaxed);
    while (ns > latest)
        if (atomic_compare_exchange_weak_explicit(&recent_now.ns, &latest, ns, memory_order_relaxed,
                                                  memory_order_relaxed))
            return ns;
    return latest;
}

/* In wasm a thread's reading moves about once a millisecond, so the store in raise_recent_now is
 * that rare and does not bounce the cache line between threads writing different files. */
int64_t fs_now_ns(void) { return raise_recent_now(stamp_clock_ns()); }

/* Set back from a time one thread saw before it bounds every thread's stamps: more than two
 * workers' clocks differ (Chromium's are up to ~5 us apart; host/platform/wall-clock.js sets the
 * stamp readings back the same 0.1 ms), so no stamp is ahead of another thread's clock_gettime. */
#define SEEN_SET_BACK_NS 100000

/* A later stamp is at least about `ns`, which the program saw: else a stamp taken after a 20 ms
 * sleep could equal one from before it when the host's ticker lagged (Linux's clock cannot).
 * Rare: a store only when the stamp clock is that far behind. */
void spindle_fs_clock_seen(int64_t realtime_ns)
{
    if (!stamp_clock_lags(realtime_ns))
        return;
    raise_recent_now(realtime_ns - SEEN_SET_BACK_NS);
}

struct inode *inode_new(enum inode_type type, const struct inode_ops *ops, uint32_t perm)
{
    struct inode *inode = fs_calloc(1, sizeof *inode);
    if (inode == NULL)
        return NULL;
    atomic_init(&inode->refs, 1);
    inode->ino = atomic_fetch_add(&next_ino.value, 1);
    inode->type = (uint8_t)type;
    inode->ops = ops;
    inode->perm = perm & 07777;
    fs_set_owner_to_caller(inode);
    int64_t now = fs_now_ns();
    atomic_init(&inode->atime_ns, now);
    inode->mtime_ns = now;
    inode->ctime_ns = now;
    return inode;
}

/* A symlink holds its target, and a /proc/self/fd link the fd's inode. */
static struct inode *free_symlink(struct inode *inode)
{
    fs_free(inode->u.symlink.target);
    return inode->u.symlink.magic;
}

const struct inode_ops symlink_ops = {.format = SPINDLE_S_IFLNK, .free = free_symlink};

/* The root is never freed: counting its references would only make every path walk write
 * its cache line. */
void inode_ref(struct inode *inode)
{
    if (!inode->pinned)
        atomic_fetch_add_explicit(&inode->refs, 1, memory_order_relaxed);
}

bool inode_ref_if_live(struct inode *inode)
{
    if (inode->pinned)
        return true;
    uint_fast32_t refs = atomic_load_explicit(&inode->refs, memory_order_relaxed);
    while (refs != 0)
        if (atomic_compare_exchange_weak_explicit(&inode->refs, &refs, refs + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            return true;
    return false;
}

void inode_unref(struct inode *inode)
{
    /* Freeing a directory drops its parent reference; loop instead of
     * recursing so a deep chain cannot overflow the stack. */
    while (inode != NULL && !inode->pinned) {
        if (atomic_fetch_sub_explicit(&inode->refs, 1, memory_order_acq_rel) != 1)
            return;
        reader_slots_wait_inode_unheld(inode); /* a lock-free walker may still look at it */
        struct inode *next = inode->ops->free ? inode->ops->free(inode) : NULL;
        if (atomic_load_explicit(&inode->locks, memory_order_acquire) != NULL) /* file_lock.c lent */
            atomic_load_explicit(&fs_lock_release, memory_order_relaxed)->free(inode);
        fs_free(inode);
        inode = next;
    }
}

void inode_read_lock(struct inode *inode) { rw_lock_read(&inode->lock); }

void inode_write_lock(struct inode *inode)
{
    rw_lock_write(&inode->lock);
    if (inode->type == INODE_FILE || inode->type == INODE_DIR) {
        atomic_store(&inode->writing, true);
        reader_slots_wait_inode(inode);
    }
}

/* While `writing` is set the lock is held for writing, so only its writer can get here. */
void inode_unlock(struct inode *inode)
{
    if (atomic_load_explicit(&inode->writing, memory_order_relaxed))
        atomic_store_explicit(&inode->writing, false, memory_order_release);
    rw_lock_unlock(&inode->lock);
}

static struct spindle_timespec to_timespec(int64_t ns)
{
    struct spindle_timespec ts;
    ts.sec = ns / 1000000000;
    ts.nsec = ns % 1000000000;
    if (ts.nsec < 0) {
        ts.nsec += 1000000000;
        ts.sec -= 1;
    }
    return ts;
}

void inode_fill_stat(struct inode *inode, struct spindle_stat *st)
{
    memset(st, 0, sizeof *st);
    st->dev = 1;
    st->ino = inode->ino;
    st->mode = inode->ops->format | inode->perm;
    st->uid = inode->uid;
    st->gid = inode->gid;
    st->nlink = inode->nlink;
    if (inode->ops->format == SPINDLE_S_IFREG) { /* a mount's file keeps its size too */
        st->size = inode->size;
        if (inode->type == INODE_FILE)
            st->blocks = (inode->u.file.bytes_allocated + 511) / 512;
    } else if (inode->type == INODE_SYMLINK) {
        st->size = (int64_t)inode->u.symlink.len;
    } else if (inode->type == INODE_PIPE || inode->type == INODE_DEVICE) {
        st->size = 0;
    } else {
        st->size = 4096;
    }
    st->atim = to_timespec(atomic_load_explicit(&inode->atime_ns, memory_order_relaxed));
    st->mtim = to_timespec(inode->mtime_ns);
    st->ctim = to_timespec(inode->ctime_ns);
}

/* Times beyond +-292 years from 1970 saturate. */
static int64_t to_ns(const struct spindle_timespec *ts)
{
    const int64_t limit = INT64_MAX / 1000000000 - 1;
    if (ts->sec > limit)
        return INT64_MAX;
    if (ts->sec < -limit)
        return INT64_MIN;
    return ts->sec * 1000000000 + ts->nsec;
}

void inode_set_times(struct inode *inode, const struct spindle_timespec times[2])
{
    int64_t now = fs_now_ns();
    inode_write_lock(inode);
    if (times[0].nsec != SPINDLE_UTIME_OMIT)
        atomic_store(&inode->atime_ns, times[0].nsec == SPINDLE_UTIME_NOW ? now : to_ns(&times[0]));
    if (times[1].nsec != SPINDLE_UTIME_OMIT)
        inode->mtime_ns = times[1].nsec == SPINDLE_UTIME_NOW ? now : to_ns(&times[1]);
    inode->ctime_ns = now;
    inode_unlock(inode);
}

void inode_restore_attrs(struct inode *inode, uint32_t mode, const struct spindle_timespec times[3])
{
    inode_write_lock(inode);
    if (mode != SPINDLE_MODE_KEEP)
        inode->perm = mode & 07777;
    atomic_store(&inode->atime_ns, to_ns(&times[0]));
    inode->mtime_ns = to_ns(&times[1]);
    inode->ctime_ns = to_ns(&times[2]);
    inode_unlock(inode);
}

void inode_touch_atime(struct inode *inode)
{
    const int64_t day_ns = (int64_t)24 * 3600 * 1000000000;
    int64_t atime = atomic_load_explicit(&inode->atime_ns, memory_order_relaxed);
    /* mtime/ctime are read under the caller's shared lock */
    bool stale = atime <= inode->mtime_ns || atime <= inode->ctime_ns;
    if (!stale && atomic_load_explicit(&recent_now.ns, memory_order_relaxed) - atime < day_ns)
        return; /* the common case: no clock call, no store */
    int64_t now = fs_now_ns();
    if (stale || now - atime >= day_ns)
        atomic_store_explicit(&inode->atime_ns, now, memory_order_relaxed);
}
