/* The working directory (chdir, and relative paths after it), safe with threads, for every
 * `spindle cc --fs` mode.
 *
 * wasi-libc keeps the working directory itself and hands the host paths relative to a
 * preopened directory. To resolve a relative path its chdir.c joins the cwd and the path in
 * ONE process-wide static buffer and uses that buffer after dropping its cwd lock. Two threads
 * resolving relative paths at once therefore read each other's path (a thread opens or unlinks
 * the other's file), and when one grows the buffer with realloc while another still writes
 * into the old one, the second writes its path into freed memory: the allocator hands that
 * memory out again (a stdio FILE, say) and the path bytes overwrite it. Seen as "null function
 * or function signature mismatch" in fgets/__uflow (a FILE's read pointer overwritten), mostly
 * with thread-caching allocators, whose freed block goes straight to the next allocation of
 * the same size.
 *
 * This file replaces libc's chdir.c as a whole: chdir and __wasilibc_find_relpath_alloc (the
 * resolver libc's open, stat, unlink... call). The join happens in the caller's own buffer
 * (its stack, or the heap for long paths), chdir swaps the cwd under libc's cwd lock, and a
 * join reads it from a copy without taking that lock (publish_cwd), so nothing is shared
 * between threads; the results are libc's (same joining, same new cwd strings, over-long
 * paths still reach the host, which answers ENAMETOOLONG).
 *
 * Why chdir is here too: libc refers to the resolver only weakly and defines it weakly, and a
 * weak reference pulls nothing out of an archive, while wasm-ld handles `-u` only after the
 * archives (libc's chdir.o would already have defined it). A program that uses a working
 * directory calls chdir; that reference pulls this file (runtime/core comes before libc on the
 * link line), so libc's chdir.o, and its resolver, are never linked. A program that never calls
 * chdir has the cwd "/" and libc resolves paths without any shared buffer.
 * Regression tests: tests/fs/wasm/cwd_threads.c, tests/jsfs/relative_paths_threads.c. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char *__wasilibc_cwd;
void __wasilibc_cwd_lock(void);
void __wasilibc_cwd_unlock(void);
int __wasilibc_find_abspath(const char *abspath, const char **abs_prefix, const char **relative);
int __wasilibc_find_relpath_alloc(const char *path, const char **abs_prefix, char **relative_buf,
                                  size_t *relative_buf_len, int can_realloc);

/* Joins up to this length happen on the stack; longer ones (the host refuses paths of 4096
 * bytes or more with ENAMETOOLONG, which the program must see) on the heap. */
#define JOINED_ON_STACK 512

/* Whether __wasilibc_cwd was allocated by chdir (it starts as a string literal). Guarded by
 * the cwd lock. */
static int cwd_allocated;

/* The cwd as path resolution reads it without a lock: a copy that chdir writes between two
 * steps of cwd_version (odd while it writes); a reader takes the version before and after its
 * copy and reads again if it moved. Every open, stat and unlink of every thread resolves a
 * relative path, and under the cwd lock they all wrote one cache line (and slept on it in V8's
 * futex emulation while another thread held it). A cwd longer than the copy is read under the
 * lock. Written only by chdir, under the cwd lock. */
#define CWD_COPY_TOO_LONG SIZE_MAX
static _Atomic unsigned char cwd_copy[JOINED_ON_STACK] = {'/'};
static _Atomic size_t cwd_copy_len = 1; /* libc's cwd starts as "/" */
static _Atomic unsigned cwd_version;

/* Under the cwd lock. */
static void publish_cwd(const char *cwd)
{
    size_t len = strlen(cwd);
    unsigned version = atomic_load_explicit(&cwd_version, memory_order_relaxed);
    atomic_store_explicit(&cwd_version, version + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release); /* the odd version before any byte changes */
    if (len < sizeof cwd_copy) {
        for (size_t i = 0; i < len; i++)
            atomic_store_explicit(&cwd_copy[i], (unsigned char)cwd[i], memory_order_relaxed);
        atomic_store_explicit(&cwd_copy_len, len, memory_order_relaxed);
    } else {
        atomic_store_explicit(&cwd_copy_len, CWD_COPY_TOO_LONG, memory_order_relaxed);
    }
    atomic_store_explicit(&cwd_version, version + 2, memory_order_release);
}

/* The bytes cwd + "/" + path needs, NUL included: the "/" is left out when the cwd is empty or
 * ends with one, as libc joins them. */
static size_t joined_size(size_t cwd_len, char cwd_last, size_t path_len, int *slash)
{
    *slash = cwd_len == 0 || cwd_last != '/';
    return cwd_len + (size_t)*slash + path_len + 1;
}

/* join_with_cwd from libc's cwd string, under the lock that chdir swaps it under. */
static size_t join_locked(const char *path, size_t path_len, char *out, size_t size)
{
    __wasilibc_cwd_lock(); /* chdir swaps and frees the cwd string under this lock */
    const char *cwd = __wasilibc_cwd;
    size_t cwd_len = strlen(cwd);
    int slash;
    size_t need = joined_size(cwd_len, cwd_len ? cwd[cwd_len - 1] : '\0', path_len, &slash);
    if (need <= size) {
        memcpy(out, cwd, cwd_len);
        if (slash)
            out[cwd_len] = '/';
        memcpy(out + cwd_len + slash, path, path_len + 1);
    }
    __wasilibc_cwd_unlock();
    return need;
}

/* Writes cwd + "/" + path into out if it fits in size bytes, as libc joins them: a leading
 * "./" is dropped, nothing is normalised (the filesystem walks "." and ".." itself). Returns
 * the bytes the join needs, NUL included. */
static size_t join_with_cwd(const char *path, char *out, size_t size)
{
    if (path[0] == '.' && path[1] == '/')
        path += 2;
    size_t path_len = strlen(path);
    unsigned version = atomic_load_explicit(&cwd_version, memory_order_acquire);
    size_t cwd_len = atomic_load_explicit(&cwd_copy_len, memory_order_relaxed);
    /* (a chdir under way holds the lock: wait for it there) */
    if ((version & 1) || cwd_len == CWD_COPY_TOO_LONG)
        return join_locked(path, path_len, out, size);
    char last = cwd_len ? (char)atomic_load_explicit(&cwd_copy[cwd_len - 1], memory_order_relaxed) : '\0';
    int slash;
    size_t need = joined_size(cwd_len, last, path_len, &slash);
    if (need <= size) {
        for (size_t i = 0; i < cwd_len; i++)
            out[i] = (char)atomic_load_explicit(&cwd_copy[i], memory_order_relaxed);
        if (slash)
            out[cwd_len] = '/';
        memcpy(out + cwd_len + slash, path, path_len + 1);
    }
    atomic_thread_fence(memory_order_acquire); /* the copy's loads before the second version */
    if (atomic_load_explicit(&cwd_version, memory_order_relaxed) != version)
        return join_locked(path, path_len, out, size);
    return need;
}

int __wasilibc_find_relpath_alloc(const char *path, const char **abs_prefix, char **relative_buf,
                                  size_t *relative_buf_len, int can_realloc)
{
    if (path[0] == '\0') { /* names nothing, as on Linux (not the working directory) */
        errno = ENOENT;
        return -1;
    }
    char on_stack[JOINED_ON_STACK];
    char *joined = on_stack;
    char *on_heap = NULL;
    const char *abspath = path;
    if (path[0] != '/') {
        size_t capacity = sizeof on_stack;
        for (;;) { /* again if another thread's chdir made the cwd longer meanwhile */
            size_t need = join_with_cwd(path, joined, capacity);
            if (need <= capacity)
                break;
            free(on_heap);
            on_heap = joined = malloc(need);
            if (on_heap == NULL) {
                errno = ENOMEM;
                return -1;
            }
            capacity = need;
        }
        abspath = joined;
    }
    const char *relative; /* points into abspath; abs_prefix into libc's preopen table */
    int fd = __wasilibc_find_abspath(abspath, abs_prefix, &relative);
    if (fd == -1)
        goto done; /* errno set: no preopened directory holds the path */
    size_t need = strlen(relative) + 1;
    if (*relative_buf_len < need) {
        if (!can_realloc) {
            errno = ERANGE;
            fd = -1;
            goto done;
        }
        char *grown = realloc(*relative_buf, need);
        if (grown == NULL) {
            errno = ENOMEM;
            fd = -1;
            goto done;
        }
        *relative_buf = grown;
        *relative_buf_len = need;
    }
    memcpy(*relative_buf, relative, need);
done:
    free(on_heap);
    return fd;
}

/* chdir after the path was resolved: it must name a directory; then the new cwd string
 * replaces the old one. */
static int chdir_checked(int dirfd, const char *prefix, const char *relative)
{
    struct stat st;
    if (fstatat(dirfd, relative, &st, 0) == -1)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    if (faccessat(dirfd, relative, X_OK, 0) == -1) /* search permission, as Linux's chdir */
        return -1;
    /* The new cwd: "/" + prefix + "/" + relative, without a "/" next to an empty prefix and
     * without the relative part when it is "." (the preopened directory itself). */
    size_t prefix_len = strlen(prefix);
    int with_relative = strcmp(relative, ".") != 0;
    int middle_slash = with_relative && prefix_len > 0;
    size_t relative_bytes = with_relative ? strlen(relative) : 0;
    char *cwd = malloc(1 + prefix_len + (size_t)middle_slash + relative_bytes + 1);
    if (cwd == NULL) {
        errno = ENOMEM;
        return -1;
    }
    char *at = cwd;
    *at++ = '/';
    memcpy(at, prefix, prefix_len);
    at += prefix_len;
    if (middle_slash)
        *at++ = '/';
    memcpy(at, relative, relative_bytes);
    at[relative_bytes] = '\0';

    __wasilibc_cwd_lock();
    char *previous = __wasilibc_cwd;
    int previous_allocated = cwd_allocated;
    __wasilibc_cwd = cwd;
    cwd_allocated = 1;
    publish_cwd(cwd);
    __wasilibc_cwd_unlock();
    /* readers of the string copy it under the lock, so none can still be using the old one */
    if (previous_allocated)
        free(previous);
    return 0;
}

int chdir(const char *path)
{
    char *relative = NULL;
    size_t relative_len = 0;
    const char *prefix; /* the preopened directory's name, without its leading "/" */
    int dirfd = __wasilibc_find_relpath_alloc(path, &prefix, &relative, &relative_len, 1);
    if (dirfd == -1)
        return -1;
    int rc = chdir_checked(dirfd, prefix, relative);
    free(relative);
    return rc;
}
