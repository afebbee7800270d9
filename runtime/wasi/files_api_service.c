/* The host's file API (host/files, docs/FILES.md): a hidden service thread that
 * runs the host's file requests (read, write, readdir, stat, mkdir, unlink,
 * rmdir, rename, symlink, and restoring a file's mode and times) through the
 * same spindle_fs_* calls, and so the same locks, as the program's threads. It
 * exists only when the host asks for it (spindle.files_wanted), so programs
 * that never use the API pay nothing.
 *
 * A constructor that runs before the program's own first puts the preloaded
 * files in, on the C main's thread: the host hands it the same requests one at
 * a time (files_preload_next), so no thread or host event loop is needed for
 * them. Then, if the host wants the service, it starts the service thread and
 * waits until the host releases main, so the requests made before start are
 * in the tree before any of the program's code runs. After the program exits
 * the host keeps the service thread's worker alive, so files can still be read
 * until the program is disposed. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/spindle/host_imports.h"
#include "wasi_support.h"

/* Filled by the host (host/files/service.js knows these offsets). */
struct files_request {
    int32_t op;
    uint32_t mode;
    int64_t size;
    char path[SPINDLE_FS_PATH_MAX];
    char path2[SPINDLE_FS_PATH_MAX]; /* rename's new path; symlink's target */
    struct spindle_timespec times[3]; /* restore: atime, mtime, ctime */
};
_Static_assert(offsetof(struct files_request, path) == 16, "host/files/service.js");
_Static_assert(offsetof(struct files_request, path2) == 16 + SPINDLE_FS_PATH_MAX, "host/files/service.js");
_Static_assert(offsetof(struct files_request, times) == 16 + 2 * SPINDLE_FS_PATH_MAX,
               "host/files/service.js");

enum op {
    OP_READ = 1,
    OP_WRITE,
    OP_STAT,
    OP_READDIR,
    OP_MKDIR,
    OP_UNLINK,
    OP_RMDIR,
    OP_RENAME,
    OP_RELEASE_MAIN,
    OP_SYMLINK,
    OP_RESTORE_ATTRS
};

/* A piece of a file for the host to copy: (address, length); address 0 = a hole. */
struct files_piece {
    uint32_t ptr;
    uint32_t len;
};
#define BATCH 256 /* pieces per host round trip: up to 1 MiB */

/* The request being served: the preloaded files' steps on the C main's thread, then, once they
 * are all in, the service thread's requests. */
static struct files_request request;

static pthread_mutex_t release_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t release_cond = PTHREAD_COND_INITIALIZER;
static bool main_released;

struct batch {
    int direction;
    int count;
    struct files_piece list[BATCH];
};

static void collect(void *piece, size_t n, int64_t at, void *ctx)
{
    (void)at;
    struct batch *b = ctx;
    if (n > 0)
        b->list[b->count++] = (struct files_piece){(uint32_t)(uintptr_t)piece, (uint32_t)n};
    if (b->count > 0 && (n == 0 || b->count == BATCH)) { /* n == 0: the lock is about to go */
        spindle_host_files_pieces(b->list, b->count, b->direction);
        b->count = 0;
    }
}

/* For files whose contents the core does not store itself (spindle_fs_copy_pieces
 * says ENOTSUP): through a buffer here, with pread/pwrite. */
static int64_t copy_through_buffer(int fd, int64_t len, int direction)
{
    static char buffer[64 << 10];
    int64_t done = 0;
    while (done < len) {
        int64_t n = len - done < (int64_t)sizeof buffer ? len - done : (int64_t)sizeof buffer;
        struct files_piece p = {(uint32_t)(uintptr_t)buffer, (uint32_t)n};
        if (direction == SPINDLE_COPY_IN) {
            spindle_host_files_pieces(&p, 1, direction);
            n = spindle_fs_pwrite(fd, buffer, (size_t)n, done);
        } else {
            n = spindle_fs_pread(fd, buffer, (size_t)n, done);
            p.len = n > 0 ? (uint32_t)n : 0;
            if (n > 0)
                spindle_host_files_pieces(&p, 1, direction);
        }
        if (n <= 0)
            return n < 0 && done == 0 ? n : done;
        done += n;
    }
    return done;
}

static int64_t copy_file(const struct files_request *rq, int direction)
{
    static struct batch batch;
    int flags = direction == SPINDLE_COPY_IN ? SPINDLE_O_WRONLY | SPINDLE_O_CREAT | SPINDLE_O_TRUNC
                                             : SPINDLE_O_RDONLY;
    int fd = spindle_fs_openat(SPINDLE_AT_FDCWD, rq->path, flags, rq->mode);
    if (fd < 0)
        return fd;
    int64_t rc = 0, len = rq->size;
    if (direction == SPINDLE_COPY_OUT) {
        struct spindle_stat st;
        rc = spindle_fs_fstat(fd, &st);
        if (rc == 0 && (st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR)
            rc = -SPINDLE_EISDIR;
        len = st.size;
        if (rc == 0) /* the host sizes its buffer from this */
            spindle_host_files_stat(st.mode, st.size, (int64_t)st.ino, (int64_t)st.nlink, 0, 0, 0);
    }
    if (rc == 0) {
        batch.direction = direction;
        batch.count = 0;
        rc = spindle_fs_copy_pieces(fd, 0, len, direction, collect, &batch);
        if (rc == -SPINDLE_ENOTSUP)
            rc = copy_through_buffer(fd, len, direction);
        if (rc >= 0 && direction == SPINDLE_COPY_IN && rc < len)
            rc = -SPINDLE_ENOSPC;
    }
    spindle_fs_close(fd);
    return rc;
}

static int64_t stat_path(const char *path)
{
    struct spindle_stat st;
    int rc = spindle_fs_fstatat(SPINDLE_AT_FDCWD, path, &st, 0);
    if (rc == 0)
        spindle_host_files_stat(
            st.mode, st.size, (int64_t)st.ino, (int64_t)st.nlink, st.atim.sec * 1000000000 + st.atim.nsec,
            st.mtim.sec * 1000000000 + st.mtim.nsec, st.ctim.sec * 1000000000 + st.ctim.nsec);
    return rc;
}

static int64_t list_dir(const char *path)
{
    static struct spindle_dirent entries[16];
    int fd = spindle_fs_openat(SPINDLE_AT_FDCWD, path, SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
    if (fd < 0)
        return fd;
    uint64_t cookie = 0;
    int n, total = 0;
    while ((n = spindle_fs_readdir(fd, cookie, entries, 16)) > 0) {
        for (int i = 0; i < n; i++) {
            const struct spindle_dirent *e = &entries[i];
            bool dots = e->name[0] == '.' && (e->name_len == 1 || (e->name_len == 2 && e->name[1] == '.'));
            if (!dots) {
                spindle_host_files_entry(e->name, e->name_len, e->type);
                total++;
            }
        }
        cookie = entries[n - 1].next_cookie;
    }
    spindle_fs_close(fd);
    return n < 0 ? n : total;
}

static int64_t serve_one(int op, const struct files_request *rq)
{
    switch (op) {
    case OP_READ:
        return copy_file(rq, SPINDLE_COPY_OUT);
    case OP_WRITE:
        return copy_file(rq, SPINDLE_COPY_IN);
    case OP_STAT:
        return stat_path(rq->path);
    case OP_READDIR:
        return list_dir(rq->path);
    case OP_MKDIR:
        return spindle_fs_mkdirat(SPINDLE_AT_FDCWD, rq->path, rq->mode);
    case OP_UNLINK:
        return spindle_fs_unlinkat(SPINDLE_AT_FDCWD, rq->path, 0);
    case OP_RMDIR:
        return spindle_fs_unlinkat(SPINDLE_AT_FDCWD, rq->path, SPINDLE_AT_REMOVEDIR);
    case OP_RENAME:
        return spindle_fs_renameat(SPINDLE_AT_FDCWD, rq->path, SPINDLE_AT_FDCWD, rq->path2);
    case OP_SYMLINK:
        return spindle_fs_symlinkat(rq->path2, SPINDLE_AT_FDCWD, rq->path);
    case OP_RESTORE_ATTRS:
        return spindle_fs_restore_attrs(rq->path, rq->mode, rq->times);
    case OP_RELEASE_MAIN:
        pthread_mutex_lock(&release_lock);
        main_released = true;
        pthread_cond_signal(&release_cond);
        pthread_mutex_unlock(&release_lock);
        return 0;
    default:
        return -SPINDLE_ENOSYS;
    }
}

static void *serve(void *unused)
{
    (void)unused;
    spindle_fs_thread_acts_for_host(true); /* for good: it serves only the host */
    for (;;) {
        int op = spindle_host_files_wait(&request);
        spindle_host_files_done(serve_one(op, &request));
    }
    return NULL;
}

/* Priority 101: before the program's constructors (C++ static initialisers
 * may read preloaded files). __wasi_init_tp has run, so threads work. */
__attribute__((constructor(101))) static void start_files_service(void)
{
    int op = spindle_host_files_preload_next(&request);
    bool wanted = spindle_host_files_wanted();
    if (op == 0 && !wanted)
        return;
    /* The "/" preopen takes the first fd before this thread opens any. */
    int32_t err = wasi_fs_ready();
    spindle_fs_thread_acts_for_host(true); /* while it puts the preloaded files in */
    for (; err == WASI_ESUCCESS && op != 0; op = spindle_host_files_preload_next(&request))
        spindle_host_files_done(serve_one(op, &request));
    spindle_fs_thread_acts_for_host(false);
    if (err == WASI_ESUCCESS && wanted) {
        pthread_attr_t attr;
        pthread_t thread;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, 64 << 10);
        err = pthread_create(&thread, &attr, serve, NULL) == 0 ? WASI_ESUCCESS : -1;
        pthread_attr_destroy(&attr);
    }
    if (err != WASI_ESUCCESS)
        spindle_host_files_unavailable(err);
    if (err != WASI_ESUCCESS || !wanted)
        return;
    pthread_mutex_lock(&release_lock);
    while (!main_released)
        pthread_cond_wait(&release_cond, &release_lock);
    pthread_mutex_unlock(&release_lock);
}

/* Referenced by spindle cc (-u) so that the linker keeps this file. */
void __spindle_files_link(void) {}
