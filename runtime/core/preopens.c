/* The preopened directories and the lookup of a path among them, without a lock on the way.
 *
 * Every libc call that takes a path (open, stat, unlink, mkdir... and Rust's std) first finds
 * which preopened directory holds it. wasi-libc's preopens.c takes one process-wide lock around
 * each lookup, so every path call of every thread writes the same cache line, and a thread that
 * finds it taken sleeps in V8's futex emulation (with the fd changes of runtime/fs, two
 * threads' lookups went from 1.34 M to 1.59 M a second on a 2-core VM). Here a lookup writes
 * nothing: the table is a log that only grows, an entry is written before the count that
 * publishes it, and a lookup reads the entries up to the count it loaded. Registering (at the first lookup, and when a program
 * calls __wasilibc_register_preopened_fd) still takes a lock, so that entries are written one at
 * a time. Entries are never moved or freed, so a lookup never reads freed memory; a reset
 * starts a new table past the old entries (it is rare: nothing in libc calls it).
 *
 * This file replaces libc's preopens.c as a whole (it defines every symbol that one does, so
 * the linker never takes libc's); the answers are libc's: the same longest-prefix match, most
 * recently registered first among equals, the same prefixes stripped, "." for the directory
 * itself, ENOENT where no preopen holds the path, and the same exit when the host's preopens
 * cannot be read. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <wasi/api.h>
#include <wasi/libc-find-relpath.h>
#include <wasi/libc.h>

void __wasilibc_reset_preopens(void);

struct preopen {
    const char *prefix; /* without leading "/" or "./" */
    size_t prefix_len;
    int fd;
};

/* The log: chunk c holds FIRST_CHUNK << c entries, so it never moves and 26 chunks hold more
 * preopens than a wasm32 memory could. */
#define FIRST_CHUNK 8
#define CHUNKS 26

static struct preopen *_Atomic chunks[CHUNKS];
static _Atomic size_t registered; /* entries written: a lookup reads [first_live, registered) */
static _Atomic size_t first_live; /* where the table starts since the last reset */
static atomic_bool populated;
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;

/* Entry i's place: the chunk and the index in it. */
static struct preopen *entry_at(size_t i, bool make)
{
    size_t c = 0, start = 0;
    while (i >= start + ((size_t)FIRST_CHUNK << c)) {
        start += (size_t)FIRST_CHUNK << c;
        c++;
    }
    if (c >= CHUNKS)
        return NULL;
    struct preopen *chunk = atomic_load_explicit(&chunks[c], memory_order_acquire);
    if (chunk == NULL && make) {
        chunk = calloc((size_t)FIRST_CHUNK << c, sizeof *chunk);
        atomic_store_explicit(&chunks[c], chunk, memory_order_release);
    }
    return chunk == NULL ? NULL : &chunk[i - start];
}

static const char *strip_prefixes(const char *path)
{
    for (;;) {
        if (path[0] == '/')
            path++;
        else if (path[0] == '.' && path[1] == '/')
            path += 2;
        else if (path[0] == '.' && path[1] == '\0')
            path++;
        else
            return path;
    }
}

/* Under `writer`. */
static int register_locked(int fd, const char *prefix)
{
    size_t i = atomic_load_explicit(&registered, memory_order_relaxed);
    struct preopen *slot = entry_at(i, true);
    char *copy = strdup(strip_prefixes(prefix));
    if (slot == NULL || copy == NULL) {
        free(copy);
        errno = ENOMEM;
        return -1;
    }
    *slot = (struct preopen){.prefix = copy, .prefix_len = strlen(copy), .fd = fd};
    atomic_store_explicit(&registered, i + 1, memory_order_release); /* publishes the entry */
    return 0;
}

/* The host's preopens are fds 3, 4, ... until fd_prestat_get answers EBADF. Under `writer`. */
static void populate_locked(void)
{
    if (atomic_load_explicit(&populated, memory_order_relaxed))
        return;
    for (__wasi_fd_t fd = 3;; fd++) {
        __wasi_prestat_t prestat;
        __wasi_errno_t rc = __wasi_fd_prestat_get(fd, &prestat);
        if (rc == __WASI_ERRNO_BADF)
            break;
        if (rc != __WASI_ERRNO_SUCCESS)
            _Exit(EX_OSERR);
        if (prestat.tag != __WASI_PREOPENTYPE_DIR)
            continue;
        size_t len = prestat.u.dir.pr_name_len;
        char *name = malloc(len + 1);
        if (name == NULL)
            _Exit(EX_SOFTWARE);
        if (__wasi_fd_prestat_dir_name(fd, (uint8_t *)name, len) != __WASI_ERRNO_SUCCESS)
            _Exit(EX_OSERR);
        name[len] = '\0';
        if (register_locked((int)fd, name) != 0)
            _Exit(EX_SOFTWARE);
        free(name);
    }
    atomic_store_explicit(&populated, true, memory_order_release);
}

void __wasilibc_populate_preopens(void)
{
    if (atomic_load_explicit(&populated, memory_order_acquire))
        return;
    pthread_mutex_lock(&writer);
    populate_locked();
    pthread_mutex_unlock(&writer);
}

int __wasilibc_register_preopened_fd(int fd, const char *prefix)
{
    pthread_mutex_lock(&writer);
    int rc = register_locked(fd, prefix);
    pthread_mutex_unlock(&writer);
    return rc;
}

void __wasilibc_reset_preopens(void)
{
    pthread_mutex_lock(&writer);
    atomic_store(&first_live, atomic_load(&registered));
    atomic_store(&populated, false);
    pthread_mutex_unlock(&writer);
}

/* Whether `prefix` names `path` or a directory above it: whole components only, trailing
 * slashes of the prefix ignored, and the empty prefix holds every relative path. */
static bool holds(const struct preopen *p, const char *path)
{
    if (p->prefix_len == 0 && path[0] != '/')
        return true;
    if (memcmp(path, p->prefix, p->prefix_len) != 0)
        return false;
    size_t end = p->prefix_len;
    while (end > 0 && p->prefix[end - 1] == '/')
        end--;
    return path[end] == '/' || path[end] == '\0';
}

int __wasilibc_find_abspath(const char *path, const char **abs_prefix, const char **relative_path)
{
    __wasilibc_populate_preopens();
    while (*path == '/')
        path++;
    size_t end = atomic_load_explicit(&registered, memory_order_acquire);
    size_t start = atomic_load_explicit(&first_live, memory_order_acquire);
    const struct preopen *best = NULL;
    for (size_t i = end; i > start; i--) { /* the latest registered wins among equals */
        const struct preopen *p = entry_at(i - 1, false);
        if ((best == NULL || p->prefix_len > best->prefix_len) && holds(p, path))
            best = p;
    }
    if (best == NULL) {
        errno = ENOENT;
        return -1;
    }
    const char *relative = path + best->prefix_len;
    while (*relative == '/')
        relative++;
    *abs_prefix = best->prefix;
    *relative_path = *relative == '\0' ? "." : relative; /* the *at calls refuse "" */
    return best->fd;
}

int __wasilibc_find_relpath(const char *path, const char **abs_prefix, char **relative_path,
                            size_t relative_path_len)
{
    /* with a working directory (runtime/core/working_directory.c linked), relative to it */
    if (__wasilibc_find_relpath_alloc)
        return __wasilibc_find_relpath_alloc(path, abs_prefix, relative_path, &relative_path_len, 0);
    return __wasilibc_find_abspath(path, abs_prefix, (const char **)relative_path);
}
