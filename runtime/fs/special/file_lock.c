/* Advisory locks: fcntl record locks (classic and open-file-description) and
 * flock, as Linux has them, for the threads of one program.
 * Each inode gets a lock table on its first lock: a list of byte ranges, each
 * with a type, an owner and a space (record locks and flock locks never see
 * each other, as on Linux). The owner of a classic lock is the process (one
 * owner for all threads), that of an OFD or flock lock its open file
 * description. Two locks conflict when their spaces match, their owners
 * differ, their ranges overlap and one of them is a write lock. An owner's
 * own ranges never overlap: a new lock replaces what the owner held in its
 * range (splitting a range it cuts through) and merges with the owner's
 * touching ranges of the same type. The table's mutex is a leaf (lock order
 * 4d); F_SETLKW sleeps on its condition with nothing else held. */
#include "fs_special.h"

#include <string.h>

#define RANGE_END INT64_MAX /* "to the end of the file, however it grows" */
#define PROCESS_OWNER ((uintptr_t)0)

enum lock_space { SPACE_RECORD = 0, SPACE_FLOCK = 1 };

struct range_lock {
    int64_t start, end; /* inclusive */
    uintptr_t owner;    /* PROCESS_OWNER or the description */
    int16_t type;       /* SPINDLE_F_RDLCK / SPINDLE_F_WRLCK */
    uint8_t space;
};

struct lock_table {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* broadcast when a lock goes away or weakens */
    struct range_lock *items;
    size_t count;
};

static const struct lock_release_calls release_calls; /* lent to the core: below */

static struct lock_table *table_of(struct inode *inode, bool create)
{
    struct lock_table *table = atomic_load_explicit(&inode->locks, memory_order_acquire);
    if (table != NULL || !create)
        return table;
    fs_lend_lock_release(&release_calls); /* before the core can see a table */
    struct lock_table *fresh = fs_calloc(1, sizeof *fresh);
    if (fresh == NULL)
        return NULL;
    pthread_mutex_init(&fresh->lock, NULL);
    pthread_cond_init(&fresh->changed, NULL);
    if (atomic_compare_exchange_strong(&inode->locks, &table, fresh))
        return fresh;
    pthread_cond_destroy(&fresh->changed); /* another thread was first */
    pthread_mutex_destroy(&fresh->lock);
    fs_free(fresh);
    return table;
}

static void free_table(struct inode *inode)
{
    struct lock_table *table = atomic_load_explicit(&inode->locks, memory_order_acquire);
    if (table == NULL)
        return;
    fs_free(table->items);
    pthread_cond_destroy(&table->changed);
    pthread_mutex_destroy(&table->lock);
    fs_free(table);
}

static bool overlaps(const struct range_lock *a, int64_t start, int64_t end)
{
    return a->start <= end && start <= a->end;
}

static const struct range_lock *find_conflict(const struct lock_table *table, const struct range_lock *want)
{
    for (size_t i = 0; i < table->count; i++) {
        const struct range_lock *held = &table->items[i];
        if (held->space == want->space && held->owner != want->owner &&
            overlaps(held, want->start, want->end) &&
            (held->type == SPINDLE_F_WRLCK || want->type == SPINDLE_F_WRLCK))
            return held;
    }
    return NULL;
}

/* Replaces the owner's locks in [want.start, want.end] by want (or by nothing
 * for F_UNLCK). Needs at most count + 2 slots (one range cut in two plus the
 * new one); -ENOLCK when they cannot be allocated, leaving the table as it was. */
static int apply(struct lock_table *table, struct range_lock want)
{
    struct range_lock *out = fs_malloc((table->count + 2) * sizeof *out);
    if (out == NULL)
        return -SPINDLE_ENOLCK;
    size_t n = 0;
    bool locking = want.type != SPINDLE_F_UNLCK;
    for (size_t i = 0; i < table->count; i++) {
        struct range_lock held = table->items[i];
        if (held.space != want.space || held.owner != want.owner) {
            out[n++] = held;
            continue;
        }
        bool touches = (want.start > 0 && held.end == want.start - 1) ||
                       (want.end < RANGE_END && held.start == want.end + 1);
        if (locking && held.type == want.type && (touches || overlaps(&held, want.start, want.end))) {
            want.start = held.start < want.start ? held.start : want.start; /* merge */
            want.end = held.end > want.end ? held.end : want.end;
            continue;
        }
        if (!overlaps(&held, want.start, want.end)) {
            out[n++] = held;
            continue;
        }
        if (held.start < want.start) { /* the part before the new range stays */
            out[n] = held;
            out[n++].end = want.start - 1;
        }
        if (held.end > want.end) { /* and the part after it */
            out[n] = held;
            out[n++].start = want.end + 1;
        }
    }
    if (locking)
        out[n++] = want;
    fs_free(table->items);
    table->items = out;
    table->count = n;
    return 0;
}

/* The byte range a struct flock names, from the description's position or
 * the file's size; -EINVAL if it starts before 0. */
static int resolve_range(struct open_file *file, const struct spindle_flock *lock, int64_t *start,
                         int64_t *end)
{
    int64_t base = 0;
    if (lock->whence == SPINDLE_SEEK_CUR) {
        pthread_mutex_lock(&file->pos_lock);
        base = file->pos;
        pthread_mutex_unlock(&file->pos_lock);
    } else if (lock->whence == SPINDLE_SEEK_END) {
        struct spindle_stat st; /* a mount's file: the backend's size, others' writes included */
        if (file->inode->ops->format == SPINDLE_S_IFREG) {
            if (open_file_stat(file, &st) < 0)
                return -SPINDLE_EINVAL;
            base = st.size;
        }
    } else if (lock->whence != SPINDLE_SEEK_SET) {
        return -SPINDLE_EINVAL;
    }
    int64_t first;
    if (__builtin_add_overflow(base, lock->start, &first))
        return -SPINDLE_EOVERFLOW;
    if (lock->len > 0) {
        *start = first;
        if (__builtin_add_overflow(first, lock->len - 1, end))
            return -SPINDLE_EOVERFLOW;
    } else if (lock->len == 0) {
        *start = first;
        *end = RANGE_END;
    } else {
        *end = first - 1;
        if (__builtin_add_overflow(first, lock->len, start))
            return -SPINDLE_EINVAL;
    }
    return *start < 0 ? -SPINDLE_EINVAL : 0;
}

/* The lock that `owner` asks for with `lock` on `file`; 0 or -errno. */
static int describe(struct open_file *file, enum spindle_lock_owner owner, const struct spindle_flock *lock,
                    struct range_lock *out)
{
    if (lock->type != SPINDLE_F_RDLCK && lock->type != SPINDLE_F_WRLCK && lock->type != SPINDLE_F_UNLCK)
        return -SPINDLE_EINVAL;
    out->type = lock->type;
    out->owner = owner == SPINDLE_LOCK_PROCESS ? PROCESS_OWNER : (uintptr_t)file;
    if (owner == SPINDLE_LOCK_FLOCK) { /* whole file, any access mode */
        out->space = SPACE_FLOCK;
        out->start = 0;
        out->end = RANGE_END;
        return 0;
    }
    if (owner != SPINDLE_LOCK_PROCESS && owner != SPINDLE_LOCK_DESCRIPTION)
        return -SPINDLE_EINVAL;
    out->space = SPACE_RECORD;
    return resolve_range(file, lock, &out->start, &out->end);
}

int spindle_fs_setlk(int fd, enum spindle_lock_owner owner, const struct spindle_flock *lock, int wait)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    struct range_lock want;
    int rc = describe(file, owner, lock, &want);
    if (rc == 0 && owner != SPINDLE_LOCK_FLOCK &&
        ((want.type == SPINDLE_F_RDLCK && !open_file_readable(file)) ||
         (want.type == SPINDLE_F_WRLCK && !open_file_writable(file))))
        rc = -SPINDLE_EBADF;
    struct lock_table *table = NULL;
    if (rc == 0) {
        table = table_of(file->inode, want.type != SPINDLE_F_UNLCK);
        if (table == NULL && want.type != SPINDLE_F_UNLCK)
            rc = -SPINDLE_ENOLCK;
    }
    if (rc == 0 && table != NULL) {
        pthread_mutex_lock(&table->lock);
        while (want.type != SPINDLE_F_UNLCK && find_conflict(table, &want) != NULL) {
            if (!wait) {
                rc = -SPINDLE_EAGAIN;
                break;
            }
            pthread_cond_wait(&table->changed, &table->lock);
        }
        if (rc == 0)
            rc = apply(table, want);
        if (rc == 0) /* an unlock or a downgrade may let a waiter in */
            pthread_cond_broadcast(&table->changed);
        pthread_mutex_unlock(&table->lock);
    }
    open_file_unref(file);
    return rc;
}

int spindle_fs_getlk(int fd, enum spindle_lock_owner owner, struct spindle_flock *lock)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    struct range_lock want;
    int rc = describe(file, owner, lock, &want);
    if (rc == 0 && want.type == SPINDLE_F_UNLCK)
        rc = -SPINDLE_EINVAL;
    if (rc == 0) {
        lock->type = SPINDLE_F_UNLCK;
        struct lock_table *table = table_of(file->inode, false);
        if (table != NULL) {
            pthread_mutex_lock(&table->lock);
            const struct range_lock *held = find_conflict(table, &want);
            if (held != NULL) {
                lock->type = held->type;
                lock->whence = SPINDLE_SEEK_SET;
                lock->start = held->start;
                lock->len = held->end == RANGE_END ? 0 : held->end - held->start + 1;
                lock->pid = held->owner == PROCESS_OWNER ? SPINDLE_LOCK_PID : -1;
            }
            pthread_mutex_unlock(&table->lock);
        }
    }
    open_file_unref(file);
    return rc;
}

/* Drops every lock of `owner` in `space` (any space when space < 0). */
static void release_owner(struct inode *inode, uintptr_t owner, int space)
{
    struct lock_table *table = table_of(inode, false);
    if (table == NULL)
        return;
    pthread_mutex_lock(&table->lock);
    size_t n = 0;
    for (size_t i = 0; i < table->count; i++) {
        const struct range_lock *held = &table->items[i];
        if (!(held->owner == owner && (space < 0 || held->space == space)))
            table->items[n++] = *held;
    }
    if (n != table->count) {
        table->count = n;
        pthread_cond_broadcast(&table->changed);
    }
    pthread_mutex_unlock(&table->lock);
}

void file_locks_close_fd(struct open_file *file) { release_owner(file->inode, PROCESS_OWNER, SPACE_RECORD); }

/* the description's last reference: drops its OFD and flock locks */
static void release_description(struct open_file *file) { release_owner(file->inode, (uintptr_t)file, -1); }

static const struct lock_release_calls release_calls = {.release_description = release_description,
                                                        .free = free_table};
