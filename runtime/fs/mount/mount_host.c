/* The wasm side of the mount host protocol (docs/MOUNTS.md section 3): a
 * struct spindle_mount_backend whose every operation fills a request in
 * linear memory (on the calling thread's stack) and calls the host import
 * spindle.mount_call, which returns once the host has answered. Built only
 * for wasm; natively the tests plug in their own backend. */
#include "fs_mount.h"
#include "mount_wire.h"
#include "../../include/spindle/host_imports.h"
#include "../../include/spindle/identity.h"

#ifdef __wasm__

#include <string.h>

_Static_assert(MOUNT_RESULT_FOLLOW == SPINDLE_MOUNT_FOLLOW && MOUNT_FOLLOW_BYTES == SPINDLE_FS_PATH_MAX,
               "the follow answer is mount.h's");

static void init(struct mount_request *r, void *ctx, int op)
{
    memset(r, 0, sizeof *r);
    r->op = op;
    r->mount = (int32_t)(intptr_t)ctx;
}

static void set_path(struct mount_request *r, const char *path)
{
    r->path = (uint32_t)(uintptr_t)path;
    r->path_len = (uint32_t)strlen(path);
}

static void set_path2(struct mount_request *r, const char *path)
{
    r->path2 = (uint32_t)(uintptr_t)path;
    r->path2_len = (uint32_t)strlen(path);
}

static int64_t call(struct mount_request *r)
{
    __atomic_store_n(&r->state, 0, __ATOMIC_SEQ_CST);
    spindle_host_mount_call(r);
    /* the host stored state = 1 after the results (Atomics.store) */
    if (__atomic_load_n(&r->state, __ATOMIC_SEQ_CST) != 1)
        return -SPINDLE_EIO;
    return r->result;
}

/* call() for the ops whose callers go on in the program's tree when a symlink leads out of the
 * mount (OPEN, STAT, UTIMENS, CHMOD): the host may write where the path continues */
static int64_t call_following(struct mount_request *r)
{
    char follow[MOUNT_FOLLOW_BYTES];
    follow[0] = '\0';
    r->follow = (uint32_t)(uintptr_t)follow;
    int64_t rc = call(r);
    return rc == MOUNT_RESULT_FOLLOW ? spindle_mount_follow(follow) : rc;
}

static struct spindle_timespec ts(int64_t ns)
{
    struct spindle_timespec t = {ns / 1000000000, ns % 1000000000};
    if (t.nsec < 0) {
        t.nsec += 1000000000;
        t.sec--;
    }
    return t;
}

static void from_wire(const struct mount_wire_stat *w, struct spindle_stat *st)
{
    memset(st, 0, sizeof *st);
    st->ino = w->ino;
    st->mode = w->mode;
    st->uid = spindle_user_id(); /* the program owns its mounts' files */
    st->gid = spindle_group_id();
    st->nlink = w->nlink;
    st->size = w->size;
    st->blocks = w->blocks;
    st->atim = ts(w->atime_ns);
    st->mtim = ts(w->mtime_ns);
    st->ctim = ts(w->ctime_ns);
}

static void set_times(struct mount_request *r, const struct spindle_timespec t[2])
{
    r->times[0] = t[0].sec;
    r->times[1] = t[0].nsec;
    r->times[2] = t[1].sec;
    r->times[3] = t[1].nsec;
}

/* The three shapes of request: on an open handle, on one or two paths, and
 * either of those returning a stat. */
static int64_t handle_call(void *ctx, int op, uint64_t handle, const void *buf, size_t len, int64_t offset,
                           int flags)
{
    struct mount_request r;
    init(&r, ctx, op);
    r.handle = handle;
    r.ptr = (uint32_t)(uintptr_t)buf;
    r.len = (uint32_t)len;
    r.offset = offset;
    r.flags = flags;
    return call(&r);
}

static int64_t path_call(void *ctx, int op, const char *path, const char *path2, int flags, uint32_t mode)
{
    struct mount_request r;
    init(&r, ctx, op);
    set_path(&r, path);
    if (path2)
        set_path2(&r, path2);
    r.flags = flags;
    r.mode = mode;
    return call(&r);
}

static int stat_call(struct mount_request *r, struct spindle_stat *st,
                     int64_t (*send)(struct mount_request *))
{
    struct mount_wire_stat w;
    r->ptr = (uint32_t)(uintptr_t)&w;
    r->len = sizeof w;
    int64_t rc = send(r);
    if (rc < 0)
        return (int)rc;
    from_wire(&w, st);
    return 0;
}

static int h_open(void *ctx, const char *rel, int flags, uint32_t mode, uint64_t *handle,
                  struct spindle_stat *st)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_OPEN);
    set_path(&r, rel);
    r.flags = flags;
    r.mode = mode;
    int rc = stat_call(&r, st, call_following);
    if (rc == 0)
        *handle = r.handle;
    return rc;
}

static int h_close(void *ctx, uint64_t handle)
{
    return (int)handle_call(ctx, MOUNT_OP_CLOSE, handle, NULL, 0, 0, 0);
}

static int64_t h_pread(void *ctx, uint64_t handle, void *buf, size_t len, int64_t offset)
{
    return handle_call(ctx, MOUNT_OP_PREAD, handle, buf, len, offset, 0);
}

static int64_t h_pwrite(void *ctx, uint64_t handle, const void *buf, size_t len, int64_t offset)
{
    return handle_call(ctx, MOUNT_OP_PWRITE, handle, buf, len, offset, 0);
}

static int h_fstat(void *ctx, uint64_t handle, struct spindle_stat *st)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_FSTAT);
    r.handle = handle;
    return stat_call(&r, st, call);
}

static int h_ftruncate(void *ctx, uint64_t handle, int64_t length)
{
    return (int)handle_call(ctx, MOUNT_OP_FTRUNCATE, handle, NULL, 0, length, 0);
}

static int h_fsync(void *ctx, uint64_t handle, int datasync)
{
    return (int)handle_call(ctx, MOUNT_OP_FSYNC, handle, NULL, 0, 0, datasync ? MOUNT_FSYNC_DATASYNC : 0);
}

static int h_futimens(void *ctx, uint64_t handle, const struct spindle_timespec times[2])
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_FUTIMENS);
    r.handle = handle;
    set_times(&r, times);
    return (int)call(&r);
}

static int h_readdir(void *ctx, uint64_t handle, uint64_t cookie, struct spindle_dirent *out, int max)
{
    _Alignas(8) uint8_t buf[4096];
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_READDIR);
    r.handle = handle;
    r.ptr = (uint32_t)(uintptr_t)buf;
    r.len = sizeof buf;
    r.offset = (int64_t)cookie;
    r.mode = (uint32_t)max; /* entries the host would write past these are thrown away here */
    int64_t got = call(&r);
    if (got < 0)
        return (int)got;
    int n = 0;
    size_t at = 0;
    const size_t header = sizeof(struct mount_wire_dirent);
    while (n < max && at + header <= (size_t)got) {
        struct mount_wire_dirent e;
        memcpy(&e, buf + at, header);
        if (e.name_len > SPINDLE_FS_NAME_MAX || at + header + e.name_len > (size_t)got)
            break;
        out[n].next_cookie = e.next_cookie;
        out[n].ino = e.ino;
        out[n].type = e.type;
        out[n].name_len = e.name_len;
        memcpy(out[n].name, buf + at + header, e.name_len);
        out[n].name[e.name_len] = '\0';
        n++;
        at += (header + e.name_len + MOUNT_WIRE_DIRENT_ALIGN - 1) & ~(size_t)(MOUNT_WIRE_DIRENT_ALIGN - 1);
    }
    return n;
}

static int h_stat(void *ctx, const char *rel, int flags, struct spindle_stat *st)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_STAT);
    set_path(&r, rel);
    r.flags = flags;
    return stat_call(&r, st, call_following);
}

static int h_mkdir(void *ctx, const char *rel, uint32_t mode)
{
    return (int)path_call(ctx, MOUNT_OP_MKDIR, rel, NULL, 0, mode);
}

static int h_unlink(void *ctx, const char *rel, int flags)
{
    return (int)path_call(ctx, MOUNT_OP_UNLINK, rel, NULL, flags, 0);
}

static int h_rename(void *ctx, const char *from, const char *to)
{
    return (int)path_call(ctx, MOUNT_OP_RENAME, from, to, 0, 0);
}

static int h_link(void *ctx, const char *from, const char *to, int flags)
{
    return (int)path_call(ctx, MOUNT_OP_LINK, from, to, flags, 0);
}

static int h_symlink(void *ctx, const char *target, const char *rel)
{
    return (int)path_call(ctx, MOUNT_OP_SYMLINK, target, rel, 0, 0);
}

static int64_t h_readlink(void *ctx, const char *rel, char *buf, size_t size)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_READLINK);
    set_path(&r, rel);
    r.ptr = (uint32_t)(uintptr_t)buf;
    r.len = (uint32_t)size;
    return call(&r);
}

static int h_utimens(void *ctx, const char *rel, const struct spindle_timespec times[2], int flags)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_UTIMENS);
    set_path(&r, rel);
    r.flags = flags;
    set_times(&r, times);
    return (int)call_following(&r);
}

static int h_chmod(void *ctx, const char *rel, uint32_t mode, int flags)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_CHMOD);
    set_path(&r, rel);
    r.flags = flags;
    r.mode = mode;
    return (int)call_following(&r);
}

static int h_fchmod(void *ctx, uint64_t handle, uint32_t mode)
{
    struct mount_request r;
    init(&r, ctx, MOUNT_OP_FCHMOD);
    r.handle = handle;
    r.mode = mode;
    return (int)call(&r);
}

static const struct spindle_mount_backend host_backend = {
    h_open,  h_close,  h_pread,  h_pwrite, h_fstat,   h_ftruncate, h_fsync,   h_futimens, h_readdir, h_stat,
    h_mkdir, h_unlink, h_rename, h_link,   h_symlink, h_readlink,  h_utimens, h_chmod,    h_fchmod,
};

int fs_host_mounts_init(void)
{
    char small[512];
    int32_t need = spindle_host_mount_list(small, sizeof small);
    if (need <= 0)
        return 0;
    char *list = small;
    if (need > (int32_t)sizeof small) {
        list = fs_malloc((size_t)need);
        if (list == NULL)
            return -SPINDLE_ENOMEM;
        spindle_host_mount_list(list, need);
    }
    int rc = 0;
    intptr_t id = 0;
    /* each entry: '+' (the host lets everything through: check the modes here) or '-', then
     * the mount's path and a NUL */
    for (int32_t at = 0; at < need && rc >= 0; id++) {
        bool check_modes = list[at] == '+';
        const char *path = list + at + 1;
        size_t len = strnlen(path, (size_t)(need - at - 1));
        rc = spindle_fs_mount(path, &host_backend, (void *)id);
        if (rc >= 0 && check_modes)
            mount_check_modes(rc);
        at += (int32_t)len + 2;
    }
    if (list != small)
        fs_free(list);
    return rc < 0 ? rc : 0;
}

#else
typedef int spindle_mount_host_is_wasm_only;
#endif
