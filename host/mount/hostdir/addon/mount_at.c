// A Node-API addon giving the host-directory mount backend (host/mount/hostdir/hostdir.js) the confined
// path calls node:fs lacks (docs/MOUNTS.md, "The native addon"):
//   openIn(root, view, pathAt, pathLength, flags, mode, at)
//                                  openat2 with RESOLVE_NO_SYMLINKS of root + "/" + the path read
//                                  from the program's memory (no string made; bytes from 0x80
//                                  give EINVAL: the careful path judges them), its stat written
//                                  at `at`: the fd, or -errno
//   statIn(root, view, pathAt, pathLength, follow, at)
//                                  the same with O_PATH|O_NOFOLLOW, fstat, close: 0 or -errno
//                                  (ELOOP for a final symlink when `follow`); where the parent
//                                  can be kept open (kept_dirs.c), one fstatat in it instead
//   dropKeptDirs()                 closes the directories this thread keeps (the program ended)
//   fstat(fd, view, at)            fstat into the program's memory: 0 or -errno
//   unlink(path, directory), mkdir(path, mode), rename(from, to), link(from, to)
//                                  the *at call in each path's parent, opened as open opens:
//                                  0 or -errno (a final name is never followed)
//   list(dirfd)                    a directory's entries, each with its fstatat, in one Buffer
//   pread(fd, view, at, len, offset)   read straight into the program's memory: bytes, or -errno
//   pwrite(fd, view, at, len, offset)  write straight from it: bytes, or -errno
//   adopt(fd), close(fd)           a dup of an fd node:fs opened, which the closing worker thread
//                                  need not have opened (node:fs warns then), and its close
//   lseek(fd, offset, whence)      the host's lseek, for stdio that is a regular file (not a
//                                  mount's: host/platform/node.js)
//   exit(code), yield()            _exit(2) and sched_yield(2) for any thread (host/platform);
//                                  exit starts startAtExit's command first
//   startAtExit(argv)              a command started when the process ends (start_at_exit.c)
//   epochOffsetNs()                CLOCK_REALTIME less CLOCK_MONOTONIC in ns, a BigInt: added to
//                                  process.hrtime it is the wall clock (host/platform)
//   stampTicker(cell, at, baseNs)  keeps the file system's stamp clock in the program's memory
//                                  from a native thread (stamp_ticker.c)
//   isatty(fd)                     isatty(3) of a host fd, a boolean: node:tty would load node:net
//                                  and the streams (~15 ms) to answer it (host/platform)
//   availableParallelism()         Node's own libuv's answer, as os.availableParallelism()
//                                  gives it: loading node:os took ~0.4 ms of every start
//   exitIfVanished(fate, at, running, stderrFd, line)
//                                  ends the process when this worker goes away while the
//                                  program runs (vanish_alarm.c; host/program/own-end.js)
// `path` is absolute and must contain no symlink, no `.` or `..` and no empty component: the
// kernel then walks exactly the names given, so a path that starts at the mount's root stays
// inside it (a symlink anywhere, the root's own path included, gives ELOOP and the caller resolves
// it the careful way). A stat goes straight into the program's memory: the protocol's stat
// (runtime/fs/mount/mount_wire.h) at byte `at` of the DataView `view`.
// Built by scripts/build-mount-addon.sh; Node-API is ABI-stable, so one build serves Node 20-24,
// and NAPI_MODULE_INIT makes it loadable in every worker thread.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <node_api.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <uv.h>

#include "../../../../runtime/fs/mount/mount_wire.h"
#include "kept_dirs.h"
#include "file_stamps.h"
#include "stamp_ticker.h"
#include "start_at_exit.h"
#include "vanish_alarm.h"

static int64_t ns_of(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

// Whether an absolute path names only plain components (no ".", "..", or empty one).
static int plain_path(const char *p)
{
    if (p[0] != '/')
        return 0;
    for (const char *c = p + 1;;) {
        const char *end = strchrnul(c, '/');
        size_t n = (size_t)(end - c);
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return 0;
        if (*end == 0)
            return 1;
        c = end + 1;
    }
}

static int open_plain(const char *path, int flags, unsigned mode)
{
    if (!plain_path(path))
        return -EINVAL;
    struct open_how how = {
        .flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
        .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
        .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    return fd < 0 ? -errno : (int)fd;
}

static void fill_wire_stat(void *at, const struct stat *st)
{
    struct mount_wire_stat w = {
        .ino = st->st_ino,
        .mode = st->st_mode,
        .nlink = st->st_nlink,
        .size = st->st_size,
        .blocks = st->st_blocks,
        .atime_ns = ns_of(st->st_atim),
        .mtime_ns = ns_of(st->st_mtim),
        .ctime_ns = ns_of(st->st_ctim),
    };
    memcpy(at, &w, sizeof w); // (the program's memory: any alignment)
}

// a listed entry: u8 type (DT_*), u8 stat_ok, u16 name_len, u32 0, its lstat as the protocol's
// stat (all zero if it could not be taken), the name and at least one NUL, padded to 8 bytes
#define ENTRY_HEAD (8 + sizeof(struct mount_wire_stat))
// (the NUL ends the name for strcmp when sorting)
#define ENTRY_BYTES(name_len) (ENTRY_HEAD + (((name_len) + 8) & ~(size_t)7))

// ---- argument helpers (a wrong argument is a JavaScript programming error: it throws) ----

static int arg_path(napi_env env, napi_value v, char *buf)
{
    size_t len = 0;
    if (napi_get_value_string_utf8(env, v, buf, PATH_MAX, &len) != napi_ok)
        return -EINVAL;
    if (len >= PATH_MAX - 1)
        return -ENAMETOOLONG;
    if (strlen(buf) != len)
        return -EINVAL; // a NUL inside: not a path the kernel would see whole
    return 0;
}

// The bytes of a DataView (the program's memory), looked up once per call: false if `view` is
// not a DataView.
struct memory {
    char *data;
    size_t length;
};

static bool arg_memory(napi_env env, napi_value view, struct memory *mem)
{
    void *data = NULL;
    mem->length = 0;
    if (napi_get_dataview_info(env, view, &mem->length, &data, NULL, NULL) != napi_ok || !data)
        return false;
    mem->data = data;
    return true;
}

// Where a stat goes: `at` bytes into the memory, wholly inside it; NULL if not.
static void *stat_out(napi_env env, const struct memory *mem, napi_value at)
{
    uint32_t offset;
    if (napi_get_value_uint32(env, at, &offset) != napi_ok || offset > mem->length ||
        mem->length - offset < sizeof(struct mount_wire_stat))
        return NULL;
    return mem->data + offset;
}

// stat_out() of DataView `view`
static void *arg_stat_out(napi_env env, napi_value view, napi_value at)
{
    struct memory mem;
    return arg_memory(env, view, &mem) ? stat_out(env, &mem, at) : NULL;
}

// A path made of the mount's root (a Buffer of its bytes, *root_length of them) and a relative
// path the program sent, read where it lies in its memory (`len` bytes at `at` of `mem`): no
// JavaScript string is made for it. 0, or -EINVAL for bytes the careful path must judge (from
// 0x80: UTF-8 is checked there; a NUL), -ENAMETOOLONG, -EFAULT outside the memory.
static int memory_path(napi_env env, napi_value root, const struct memory *mem, napi_value at, napi_value len,
                       char *buf, size_t *root_length)
{
    void *root_bytes = NULL;
    size_t root_len = 0;
    uint32_t offset, n;
    if (napi_get_buffer_info(env, root, &root_bytes, &root_len) != napi_ok ||
        napi_get_value_uint32(env, at, &offset) != napi_ok || napi_get_value_uint32(env, len, &n) != napi_ok)
        return -EINVAL;
    if (offset > mem->length || mem->length - offset < n)
        return -EFAULT;
    if (root_len + 1 + (size_t)n >= PATH_MAX - 1)
        return -ENAMETOOLONG;
    if (memchr(root_bytes, 0, root_len) != NULL)
        return -EINVAL; // not a path the kernel would see whole
    memcpy(buf, root_bytes, root_len);
    *root_length = root_len;
    size_t at_byte = root_len;
    if (n > 0)
        buf[at_byte++] = '/';
    const unsigned char *rel = (const unsigned char *)mem->data + offset;
    for (uint32_t i = 0; i < n; i++) {
        if (rel[i] == 0 || rel[i] >= 0x80)
            return -EINVAL;
        buf[at_byte++] = (char)rel[i];
    }
    buf[at_byte] = 0;
    return 0;
}

static napi_value int_value(napi_env env, int n)
{
    napi_value v;
    napi_create_int32(env, n, &v);
    return v;
}

static napi_value type_error(napi_env env, const char *what)
{
    napi_throw_type_error(env, NULL, what);
    return NULL;
}

// (a thread without kept directories: its instance data, so that it asks only once)
static char no_kept_dirs;

static void free_kept_dirs(napi_env env, void *data, void *hint)
{
    (void)env, (void)hint;
    if (data != &no_kept_dirs)
        kept_dirs_free(data);
}

// This thread's kept directories (kept_dirs.c), made at its first call; NULL for none.
static struct kept_dirs *kept_dirs_of(napi_env env)
{
    void *data = NULL;
    if (napi_get_instance_data(env, &data) != napi_ok)
        return NULL;
    if (!data) {
        struct kept_dirs *made = kept_dirs_new();
        data = made ? (void *)made : (void *)&no_kept_dirs;
        if (napi_set_instance_data(env, data, free_kept_dirs, NULL) != napi_ok) {
            kept_dirs_free(made);
            return NULL;
        }
    }
    return data == &no_kept_dirs ? NULL : data;
}

// The fd of path opened (close-on-exec), its stat written at `out`; or -errno. (Not through a
// kept parent directory, kept_dirs.c: an open makes a struct file either way, and the queue's
// read cost more than the shorter walk saved: 5.5-6.5 against 5.0-6.0 us for open + fstat +
// pread + close of a file two levels deep, natively, 2026-11-29.)
static int open_with_stat(const char *path, int flags, unsigned mode, void *out)
{
    int fd = open_plain(path, flags, mode);
    if (fd < 0)
        return fd;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = -errno;
        close(fd);
        return err;
    }
    fill_wire_stat(out, &st);
    return fd;
}

// openIn(root, view, pathAt, pathLength, flags, mode, at): open of root + "/" + the path in the
// view (memory_path), as open
static napi_value js_open_in(napi_env env, napi_callback_info info)
{
    size_t argc = 7;
    napi_value argv[7];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    char path[PATH_MAX];
    int32_t flags = 0;
    uint32_t mode = 0;
    struct memory mem;
    void *out = argc == 7 && arg_memory(env, argv[1], &mem) ? stat_out(env, &mem, argv[6]) : NULL;
    if (!out || napi_get_value_int32(env, argv[4], &flags) != napi_ok ||
        napi_get_value_uint32(env, argv[5], &mode) != napi_ok)
        return type_error(env, "openIn(root, view, pathAt, pathLength, flags, mode, at)");
    size_t root_len;
    int err = memory_path(env, argv[0], &mem, argv[2], argv[3], path, &root_len);
    return int_value(env, err ? err : open_with_stat(path, flags, mode, out));
}

// The stat of what path (root_len bytes of it the mount's root) names written at `out` (a final
// symlink itself, or -ELOOP when `follow`: the caller resolves it): 0 or -errno. Through its
// parent kept open where it can be (kept_dirs.c): one fstatat of its last name there, where the
// kernel alone would open, fstat and close the path.
static int stat_in(struct kept_dirs *kept, const char *path, size_t root_len, bool follow, void *out)
{
    if (!plain_path(path))
        return -EINVAL;
    const char *name;
    int dir = kept_parent(kept, path, root_len, &name);
    struct stat st;
    int err = 0;
    if (dir >= 0) {
        err = fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
    } else {
        int fd = open_plain(path, O_PATH, 0);
        if (fd < 0)
            return fd;
        err = fstat(fd, &st) == 0 ? 0 : -errno;
        close(fd);
    }
    if (!err && follow && S_ISLNK(st.st_mode))
        err = -ELOOP;
    if (!err)
        fill_wire_stat(out, &st);
    return err;
}

// statIn(root, view, pathAt, pathLength, follow, at): stat of root + "/" + the path in the view
// (memory_path), as stat
static napi_value js_stat_in(napi_env env, napi_callback_info info)
{
    size_t argc = 6;
    napi_value argv[6];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    char path[PATH_MAX];
    bool follow = false;
    struct memory mem;
    void *out = argc == 6 && arg_memory(env, argv[1], &mem) ? stat_out(env, &mem, argv[5]) : NULL;
    if (!out || napi_get_value_bool(env, argv[4], &follow) != napi_ok)
        return type_error(env, "statIn(root, view, pathAt, pathLength, follow, at)");
    size_t root_len;
    int err = memory_path(env, argv[0], &mem, argv[2], argv[3], path, &root_len);
    return int_value(env, err ? err : stat_in(kept_dirs_of(env), path, root_len, follow, out));
}

// dropKeptDirs(): this thread's kept directories closed, and their watches
static napi_value js_drop_kept_dirs(napi_env env, napi_callback_info info)
{
    (void)info;
    void *data = NULL;
    if (napi_get_instance_data(env, &data) == napi_ok && data && data != &no_kept_dirs)
        kept_dirs_drop(data);
    return NULL;
}

// fstat(fd, view, at): 0 and the fd's stat written, or -errno (node:fs's fstatSync with BigInts
// made an object of 14 BigInts for each call: ~1 us, four times the system call)
static napi_value js_fstat(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value argv[3];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    int32_t fd;
    void *out = argc == 3 ? arg_stat_out(env, argv[1], argv[2]) : NULL;
    if (!out || napi_get_value_int32(env, argv[0], &fd) != napi_ok)
        return type_error(env, "fstat(fd, view, at)");
    struct stat st;
    if (fstat(fd, &st) != 0)
        return int_value(env, -errno);
    fill_wire_stat(out, &st);
    return int_value(env, 0);
}

// ---- names changed in a directory: unlink, mkdir, rename, link ----

// The parent of `path` (checked as open_plain checks a path), opened O_PATH: its fd, or -errno;
// *name is then path's last component.
static int open_parent(char *path, const char **name)
{
    if (!plain_path(path))
        return -EINVAL;
    char *slash = strrchr(path, '/');
    if (slash == path)
        return -EINVAL; // "/" or "/x": no mount's root is /
    *slash = 0;
    int fd = open_plain(path, O_PATH | O_DIRECTORY, 0);
    *slash = '/';
    *name = slash + 1;
    return fd;
}

// The paths in argv[0..n), each with its parent opened: 0, or -errno (every fd closed then)
static int parents_of(napi_env env, napi_value *argv, size_t n, char paths[][PATH_MAX], int *fds,
                      const char **names)
{
    for (size_t i = 0; i < n; i++)
        fds[i] = -1;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++) {
        err = arg_path(env, argv[i], paths[i]);
        if (!err) {
            fds[i] = open_parent(paths[i], &names[i]);
            if (fds[i] < 0)
                err = fds[i];
        }
    }
    if (err)
        for (size_t i = 0; i < n; i++)
            if (fds[i] >= 0)
                close(fds[i]);
    return err;
}

// unlink(path, directory) and mkdir(path, mode): unlinkat (AT_REMOVEDIR for a directory) or
// mkdirat in path's parent: 0 or -errno
static napi_value one_name(napi_env env, napi_callback_info info, bool make)
{
    size_t argc = 2;
    napi_value argv[2];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    bool directory = false;
    uint32_t mode = 0;
    if (argc != 2 || (make ? napi_get_value_uint32(env, argv[1], &mode)
                           : napi_get_value_bool(env, argv[1], &directory)) != napi_ok)
        return type_error(env, make ? "mkdir(path, mode)" : "unlink(path, directory)");
    char paths[1][PATH_MAX];
    const char *name;
    // (the parent kept open where it can be, kept_dirs.c: the JavaScript never sends the root
    // itself, so every parent is the root or below it)
    int fd = arg_path(env, argv[0], paths[0]) == 0 && plain_path(paths[0])
                 ? kept_parent(kept_dirs_of(env), paths[0], 0, &name)
                 : -1;
    bool kept = fd >= 0;
    if (!kept) {
        int err = parents_of(env, argv, 1, paths, &fd, &name);
        if (err)
            return int_value(env, err);
    }
    int rc = make ? mkdirat(fd, name, mode & 0777) : unlinkat(fd, name, directory ? AT_REMOVEDIR : 0);
    int err = rc == 0 ? 0 : -errno;
    if (!kept)
        close(fd);
    return int_value(env, err);
}

static napi_value js_unlink(napi_env env, napi_callback_info info) { return one_name(env, info, false); }
static napi_value js_mkdir(napi_env env, napi_callback_info info) { return one_name(env, info, true); }

// rename(from, to) and link(from, to) (a hard link to `from` itself, never a symlink's target):
// renameat / linkat between the two parents: 0 or -errno
static napi_value two_names(napi_env env, napi_callback_info info, bool link)
{
    size_t argc = 2;
    napi_value argv[2];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    if (argc != 2)
        return type_error(env, link ? "link(from, to)" : "rename(from, to)");
    char paths[2][PATH_MAX];
    int fds[2];
    const char *names[2];
    int err = parents_of(env, argv, 2, paths, fds, names);
    if (err)
        return int_value(env, err);
    int rc =
        link ? linkat(fds[0], names[0], fds[1], names[1], 0) : renameat(fds[0], names[0], fds[1], names[1]);
    err = rc == 0 ? 0 : -errno;
    close(fds[0]);
    close(fds[1]);
    return int_value(env, err);
}

static napi_value js_rename(napi_env env, napi_callback_info info) { return two_names(env, info, false); }
static napi_value js_link(napi_env env, napi_callback_info info) { return two_names(env, info, true); }

// ---- list(dirfd) ----

struct listing {
    char *bytes;
    size_t used, size;
    size_t *starts; // where each entry begins, to sort them
    size_t count, cap;
};

static int grow(void **p, size_t *cap, size_t need, size_t unit)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * unit);
    if (!q)
        return -ENOMEM;
    *p = q;
    *cap = n;
    return 0;
}

static int add_entry(struct listing *l, int dirfd, const struct dirent *e)
{
    size_t name_len = strlen(e->d_name);
    size_t bytes = ENTRY_BYTES(name_len);
    if (grow((void **)&l->bytes, &l->size, l->used + bytes, 1) ||
        grow((void **)&l->starts, &l->cap, l->count + 1, sizeof(size_t)))
        return -ENOMEM;
    unsigned char *at = (unsigned char *)l->bytes + l->used;
    memset(at, 0, bytes);
    struct stat st;
    int ok = fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0;
    unsigned type = e->d_type;
    if (type == DT_UNKNOWN && ok)
        type = IFTODT(st.st_mode);
    at[0] = (unsigned char)type;
    at[1] = (unsigned char)ok;
    uint16_t n16 = (uint16_t)name_len;
    memcpy(at + 2, &n16, 2);
    if (ok)
        fill_wire_stat(at + 8, &st);
    memcpy(at + ENTRY_HEAD, e->d_name, name_len);
    l->starts[l->count++] = l->used;
    l->used += bytes;
    return 0;
}

// (qsort_r: worker threads may list at the same time)
static int by_name(const void *a, const void *b, void *bytes)
{
    const char *base = bytes;
    return strcmp(base + *(const size_t *)a + ENTRY_HEAD, base + *(const size_t *)b + ENTRY_HEAD);
}

// Reads the directory fd names (from its start, on a descriptor of its own), entries sorted by
// name as node:fs lists them; 0 or -errno.
static int read_listing(int fd, struct listing *l)
{
    int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (own < 0)
        return -errno;
    DIR *dir = fdopendir(own);
    if (!dir) {
        int err = -errno;
        close(own);
        return err;
    }
    int err = 0;
    for (struct dirent *e; !err && (errno = 0, e = readdir(dir));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        err = add_entry(l, own, e);
    }
    if (!err && errno)
        err = -errno;
    closedir(dir);
    return err;
}

// list(dirfd): a Buffer of the entries (layout above), or -errno
static napi_value js_list(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value argv[1];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    int32_t fd;
    if (argc != 1 || napi_get_value_int32(env, argv[0], &fd) != napi_ok)
        return type_error(env, "list(fd)");
    struct listing l = {0};
    int err = read_listing(fd, &l);
    napi_value result = NULL;
    char *sorted = NULL;
    if (!err && l.used && !(sorted = malloc(l.used)))
        err = -ENOMEM;
    if (!err) {
        // node:fs (libuv's scandir) lists names sorted by strcmp: the same order as before
        qsort_r(l.starts, l.count, sizeof *l.starts, by_name, l.bytes);
        size_t at = 0;
        for (size_t i = 0; i < l.count; i++) {
            size_t start = l.starts[i];
            uint16_t n16;
            memcpy(&n16, l.bytes + start + 2, 2);
            size_t bytes = ENTRY_BYTES((size_t)n16);
            memcpy(sorted + at, l.bytes + start, bytes);
            at += bytes;
        }
        napi_create_buffer_copy(env, l.used, sorted ? sorted : "", NULL, &result);
    }
    free(sorted);
    free(l.bytes);
    free(l.starts);
    return result ? result : int_value(env, err);
}

// The arguments of pread and pwrite: (fd, view, at, len, offset), with [at, at + len) wholly
// inside `view`; *mem points at byte `at`. False if any is wrong.
static bool io_args(napi_env env, napi_callback_info info, int32_t *fd, char **mem, uint32_t *len,
                    int64_t *offset)
{
    size_t argc = 5;
    napi_value argv[5];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    uint32_t at;
    size_t length = 0;
    void *data = NULL;
    if (argc != 5 || napi_get_value_int32(env, argv[0], fd) != napi_ok ||
        napi_get_dataview_info(env, argv[1], &length, &data, NULL, NULL) != napi_ok ||
        napi_get_value_uint32(env, argv[2], &at) != napi_ok ||
        napi_get_value_uint32(env, argv[3], len) != napi_ok ||
        napi_get_value_int64(env, argv[4], offset) != napi_ok || !data || at > length || length - at < *len ||
        *offset < 0)
        return false;
    *mem = (char *)data + at;
    return true;
}

static napi_value count_value(napi_env env, ssize_t n)
{
    napi_value v;
    napi_create_int64(env, n < 0 ? -errno : n, &v);
    return v;
}

// pread(fd, view, at, len, offset): bytes read into `view` at `at`, or -errno
static napi_value js_pread(napi_env env, napi_callback_info info)
{
    int32_t fd;
    char *mem;
    uint32_t len;
    int64_t offset;
    if (!io_args(env, info, &fd, &mem, &len, &offset))
        return type_error(env, "pread(fd, view, at, len, offset)");
    return count_value(env, pread(fd, mem, len, offset));
}

// pwrite(fd, view, at, len, offset): bytes written from `view` at `at`, or -errno. Straight from
// the program's memory: node:fs's writeSync cost a view object and its checks per call, and
// every small write of a mount is now one such call (write-through).
static napi_value js_pwrite(napi_env env, napi_callback_info info)
{
    int32_t fd;
    char *mem;
    uint32_t len;
    int64_t offset;
    if (!io_args(env, info, &fd, &mem, &len, &offset))
        return type_error(env, "pwrite(fd, view, at, len, offset)");
    return count_value(env, pwrite(fd, mem, len, offset));
}

// lseek(fd, offset, whence): the new offset, or -errno. For a stdio fd that is a regular file
// (host/platform/node.js): Node has no lseek, and the offset must be the fd's own, which the
// shell that opened it shares.
static napi_value js_lseek(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value argv[3];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    int32_t fd, whence;
    int64_t offset;
    if (argc != 3 || napi_get_value_int32(env, argv[0], &fd) != napi_ok ||
        napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
        napi_get_value_int32(env, argv[2], &whence) != napi_ok)
        return type_error(env, "lseek(fd, offset, whence)");
    off_t at = lseek(fd, offset, whence);
    napi_value v;
    napi_create_int64(env, at < 0 ? -errno : at, &v);
    return v;
}

static int arg_fd(napi_env env, napi_callback_info info, int32_t *fd)
{
    size_t argc = 1;
    napi_value argv[1];
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    return argc == 1 && napi_get_value_int32(env, argv[0], fd) == napi_ok;
}

// adopt(fd): a close-on-exec duplicate of fd (node:fs's, which the caller then closes), or -errno
static napi_value js_adopt(napi_env env, napi_callback_info info)
{
    int32_t fd;
    if (!arg_fd(env, info, &fd))
        return type_error(env, "adopt(fd)");
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return int_value(env, copy < 0 ? -errno : copy);
}

// close(fd): 0 or -errno
static napi_value js_close(napi_env env, napi_callback_info info)
{
    int32_t fd;
    if (!arg_fd(env, info, &fd))
        return type_error(env, "close(fd)");
    return int_value(env, close(fd) == 0 ? 0 : -errno);
}

// exit(code): ends the whole process at once, from any thread (host/platform/process-exit.js).
// A worker's process.exit ends only that worker, and Node's main thread may be inside wasm.
static napi_value js_exit(napi_env env, napi_callback_info info)
{
    int32_t code;
    if (!arg_fd(env, info, &code))
        return type_error(env, "exit(code)");
    start_at_exit_now();
    _exit(code & 0xff);
}

// yield(): the calling thread gives up its CPU (sched_yield(2)), for WASI's sched_yield
// (host/platform/node.js): a spinning thread then lets the lock holder it waits for run. It
// takes no arguments, so nothing the program passes reaches it.
static napi_value js_yield(napi_env env, napi_callback_info info)
{
    (void)env;
    (void)info;
    sched_yield();
    return NULL;
}

// epochOffsetNs(): the wall clock less the monotonic one (process.hrtime's, libuv's
// CLOCK_MONOTONIC), read between two readings of the monotonic clock, in ns: the host adds it to
// process.hrtime for a wall clock every thread shares (host/platform/wall-clock.js), exact to a
// microsecond, where Date.now() would give a millisecond or worse.
static napi_value js_epoch_offset_ns(napi_env env, napi_callback_info info)
{
    (void)info;
    struct timespec before, wall, after;
    clock_gettime(CLOCK_MONOTONIC, &before);
    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &after);
    napi_value result;
    napi_create_bigint_int64(env, ns_of(wall) - (ns_of(before) + ns_of(after)) / 2, &result);
    return result;
}

// isatty(fd): whether host fd `fd` is a terminal. Any int is safe to ask: a bad fd is false.
static napi_value js_isatty(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value argv[1];
    int32_t fd = -1;
    napi_value result;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
        napi_get_value_int32(env, argv[0], &fd) != napi_ok)
        fd = -1;
    napi_get_boolean(env, fd >= 0 && isatty(fd) == 1, &result);
    return result;
}

// availableParallelism(): the CPUs this process may use, from the libuv of the Node that loaded
// the addon (the same call os.availableParallelism makes, so the same number).
static napi_value js_available_parallelism(napi_env env, napi_callback_info info)
{
    (void)info;
    napi_value result;
    napi_create_uint32(env, uv_available_parallelism(), &result);
    return result;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */)
{
    const napi_property_descriptor fns[] = {
        {"openIn", NULL, js_open_in, NULL, NULL, NULL, napi_enumerable, NULL},
        {"statIn", NULL, js_stat_in, NULL, NULL, NULL, napi_enumerable, NULL},
        {"dropKeptDirs", NULL, js_drop_kept_dirs, NULL, NULL, NULL, napi_enumerable, NULL},
        {"fstat", NULL, js_fstat, NULL, NULL, NULL, napi_enumerable, NULL},
        {"unlink", NULL, js_unlink, NULL, NULL, NULL, napi_enumerable, NULL},
        {"mkdir", NULL, js_mkdir, NULL, NULL, NULL, napi_enumerable, NULL},
        {"rename", NULL, js_rename, NULL, NULL, NULL, napi_enumerable, NULL},
        {"link", NULL, js_link, NULL, NULL, NULL, napi_enumerable, NULL},
        {"list", NULL, js_list, NULL, NULL, NULL, napi_enumerable, NULL},
        {"pread", NULL, js_pread, NULL, NULL, NULL, napi_enumerable, NULL},
        {"pwrite", NULL, js_pwrite, NULL, NULL, NULL, napi_enumerable, NULL},
        {"adopt", NULL, js_adopt, NULL, NULL, NULL, napi_enumerable, NULL},
        {"close", NULL, js_close, NULL, NULL, NULL, napi_enumerable, NULL},
        {"lseek", NULL, js_lseek, NULL, NULL, NULL, napi_enumerable, NULL},
        {"exit", NULL, js_exit, NULL, NULL, NULL, napi_enumerable, NULL},
        {"yield", NULL, js_yield, NULL, NULL, NULL, napi_enumerable, NULL},
        {"epochOffsetNs", NULL, js_epoch_offset_ns, NULL, NULL, NULL, napi_enumerable, NULL},
        {"stampTicker", NULL, js_stamp_ticker, NULL, NULL, NULL, napi_enumerable, NULL},
        {"isatty", NULL, js_isatty, NULL, NULL, NULL, napi_enumerable, NULL},
        {"availableParallelism", NULL, js_available_parallelism, NULL, NULL, NULL, napi_enumerable, NULL},
        {"exitIfVanished", NULL, js_exit_if_vanished, NULL, NULL, NULL, napi_enumerable, NULL},
        {"startAtExit", NULL, js_start_at_exit, NULL, NULL, NULL, napi_enumerable, NULL},
        {"fileStamps", NULL, js_file_stamps, NULL, NULL, NULL, napi_enumerable, NULL},
    };
    napi_define_properties(env, exports, sizeof fns / sizeof fns[0], fns);
    return exports;
}
