// The mount backend's handles (wasi_mount.c) as host fds on every thread. Some WASI hosts keep
// one fd table per thread (the npm host: a WASI object per worker; tools/wasmtime/run.py: a WASI
// context per store), so a host fd opened by one thread means nothing, or another file, on
// the next. A handle therefore remembers its path: the thread that opened it uses its fd, any
// other thread opens the same path for itself once (kept in a small per-thread cache), and an
// fd is only ever closed by the thread it belongs to (others queue it for that thread).
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../wasi/wasi_abi.h"
#include "../wasi/wasi_host.h"
#include "wasi_mount.h"

#define ADDR(p) ((int32_t)(uintptr_t)(p))
#define BORROWED_SLOTS 8
#define PENDING_MAX 64

struct host_file {
    uint64_t serial; // never reused, unlike the address: what the per-thread caches key on
    uint64_t owner; // thread_id() of the thread that opened it
    int32_t fd;     // the owner's
    int32_t dir_fd, oflags;
    int64_t base, inheriting;
    char path[];
};

// other threads' fds of this thread's open files of the preopens
static _Thread_local struct {
    uint64_t serial; // 0: empty
    int32_t fd;
} borrowed[BORROWED_SLOTS];

// fds to close, each by its owner thread, the next time that thread calls here
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    uint64_t owner;
    int32_t fd;
} pending[PENDING_MAX];
static atomic_int pending_count;
static atomic_uint_fast64_t next_serial = 1;

// A number for the calling thread that no other thread ever has (a pthread_t is reused once
// its thread is gone, and the next thread with it may run on another worker, another table).
static uint64_t thread_id(void)
{
    static atomic_uint_fast64_t next_id = 1;
    static _Thread_local uint64_t id;
    if (id == 0)
        id = atomic_fetch_add(&next_id, 1);
    return id;
}

static void close_pending_of_this_thread(void)
{
    if (atomic_load_explicit(&pending_count, memory_order_relaxed) == 0)
        return;
    pthread_mutex_lock(&pending_lock);
    int n = atomic_load(&pending_count);
    for (int i = 0; i < n;) {
        if (pending[i].owner == thread_id()) {
            host_fd_close(pending[i].fd);
            pending[i] = pending[--n];
        } else {
            i++;
        }
    }
    atomic_store(&pending_count, n);
    pthread_mutex_unlock(&pending_lock);
}

static void close_later(uint64_t owner, int32_t fd)
{
    pthread_mutex_lock(&pending_lock);
    int n = atomic_load(&pending_count);
    if (n < PENDING_MAX) { // past that the fd stays open: a leak, never another file's close
        pending[n].owner = owner;
        pending[n].fd = fd;
        atomic_store(&pending_count, n + 1);
    }
    pthread_mutex_unlock(&pending_lock);
}

int32_t host_file_open(int32_t dir_fd, const char *path, int32_t lookup, int32_t oflags, int64_t base,
                       int64_t inheriting, uint64_t *handle)
{
    close_pending_of_this_thread();
    size_t len = strlen(path);
    struct host_file *file = malloc(sizeof *file + len + 1);
    if (file == NULL)
        return WASI_ENOMEM;
    int32_t rc = host_path_open(dir_fd, lookup, ADDR(path), (int32_t)len, oflags, base, inheriting, 0,
                                ADDR(&file->fd));
    if (rc) {
        free(file);
        return rc;
    }
    file->serial = atomic_fetch_add(&next_serial, 1);
    file->owner = thread_id();
    file->dir_fd = dir_fd;
    // a second open of the same file must not create, truncate or fail on it again
    file->oflags = oflags & WASI_OFLAGS_DIRECTORY;
    file->base = base;
    file->inheriting = inheriting;
    memcpy(file->path, path, len + 1);
    *handle = (uint64_t)(uintptr_t)file;
    return WASI_ESUCCESS;
}

int32_t host_file_fd(uint64_t handle, int32_t *fd)
{
    struct host_file *file = (struct host_file *)(uintptr_t)handle;
    if (file->owner == thread_id()) {
        *fd = file->fd;
        return WASI_ESUCCESS;
    }
    close_pending_of_this_thread();
    unsigned slot = (unsigned)(file->serial % BORROWED_SLOTS);
    if (borrowed[slot].serial == file->serial) {
        *fd = borrowed[slot].fd;
        return WASI_ESUCCESS;
    }
    int32_t opened;
    // the same path, so a file renamed or removed since its open cannot be reached from here
    int32_t rc = host_path_open(file->dir_fd, WASI_LOOKUP_SYMLINK_FOLLOW, ADDR(file->path),
                                (int32_t)strlen(file->path), file->oflags, file->base, file->inheriting, 0,
                                ADDR(&opened));
    if (rc)
        return rc == WASI_ENOENT ? WASI_EBADF : rc;
    if (borrowed[slot].serial)
        host_fd_close(borrowed[slot].fd);
    borrowed[slot].serial = file->serial;
    borrowed[slot].fd = opened;
    *fd = opened;
    return WASI_ESUCCESS;
}

int32_t host_file_close(uint64_t handle)
{
    struct host_file *file = (struct host_file *)(uintptr_t)handle;
    unsigned slot = (unsigned)(file->serial % BORROWED_SLOTS);
    if (borrowed[slot].serial == file->serial) {
        host_fd_close(borrowed[slot].fd);
        borrowed[slot].serial = 0;
    }
    int32_t rc = WASI_ESUCCESS;
    if (file->owner == thread_id())
        rc = host_fd_close(file->fd);
    else
        close_later(file->owner, file->fd);
    free(file);
    return rc;
}
