/* A hostile module (tests/hostile.test.js): it calls Spindle's host imports itself, with
 * requests it forges, instead of going through the runtime. Every answer must be a clear error
 * (EBADF, EFAULT, ...) and nothing outside what the module was given may be touched.
 *   hostile forge       every handle op on handles 0..1099 and a few high ones (Node fds, ...)
 *   hostile stale       a real handle: its bit flips, after close, on another mount
 *   hostile pointers    requests, buffers and paths outside linear memory; bad ops and mounts
 *   hostile files       the files API's imports called out of turn
 *   hostile fuzz SEED MS  random requests for MS milliseconds
 * Mount 0 must hold a file "in.txt" (at least 5 bytes); a second mount is used if present. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define IMPORT(name) __attribute__((import_module("spindle"), import_name(name)))

IMPORT("mount_call") int32_t mount_call(void *request);
IMPORT("mount_list") int32_t mount_list(void *buf, int32_t len);
IMPORT("files_wait") int32_t files_wait(void *request);
IMPORT("files_pieces") void files_pieces(void *list, int32_t count, int32_t direction);
IMPORT("files_stat")
void files_stat(uint32_t mode, int64_t size, int64_t ino, int64_t nlink, int64_t atime, int64_t mtime,
                int64_t ctime);
IMPORT("files_entry") void files_entry(const void *name, int32_t len, int32_t type);
IMPORT("files_done") void files_done(int32_t result);
IMPORT("files_preload_next") int32_t files_preload_next(void *request);
IMPORT("stamp_ticker") int32_t stamp_ticker(void *cell);

/* runtime/fs/mount/mount_wire.h's struct mount_request, written out: a hostile module brings its own */
struct request {
    int32_t state, op, mount, flags;
    int64_t result;
    uint64_t handle;
    int64_t offset;
    uint32_t ptr, len, path, path_len, path2, path2_len, mode, reserved;
    int64_t times[4];
};
_Static_assert(sizeof(struct request) == 104, "the protocol's request");

enum {
    OPEN = 1,
    CLOSE,
    PREAD,
    PWRITE,
    FSTAT,
    FTRUNCATE,
    FSYNC,
    READDIR,
    STAT,
    MKDIR,
    UNLINK,
    RENAME,
    LINK,
    SYMLINK,
    READLINK,
    UTIMENS,
    FUTIMENS
};
static const int handle_ops[] = {FSTAT, PREAD, PWRITE, FTRUNCATE, FUTIMENS, FSYNC, READDIR, CLOSE};
enum { EBADF = 9, EFAULT = 14, EINVAL = 22, ENODEV = 19, ENOTSUP = 95 };

static _Alignas(8) unsigned char scratch[4096];
static int mounts;

static int64_t call(struct request *r)
{
    r->state = 0;
    int32_t rc = mount_call(r);
    if (rc < 0)
        return rc;
    return r->state == 1 ? r->result : -1000;
}

static int64_t on_handle(int op, int mount, uint64_t handle)
{
    struct request r = {.op = op, .mount = mount, .handle = handle, .ptr = (uint32_t)(uintptr_t)scratch};
    r.len = op == PREAD || op == READDIR ? 64 : op == PWRITE ? 5 : op == FSTAT ? 64 : 0;
    if (op == PWRITE)
        memcpy(scratch, "PWNED", 5);
    r.offset = op == FTRUNCATE ? 1 : 0;
    r.times[1] = r.times[3] = (1 << 30) - 1; /* UTIME_NOW */
    return call(&r);
}

static int64_t open_file(int mount, const char *path, uint64_t *handle)
{
    struct request r = {.op = OPEN, .mount = mount, .ptr = (uint32_t)(uintptr_t)scratch, .len = 64};
    r.path = (uint32_t)(uintptr_t)path;
    r.path_len = (uint32_t)strlen(path);
    r.flags = 02 | 0100; /* O_RDWR | O_CREAT (Linux) */
    r.mode = 0644;
    int64_t rc = call(&r);
    *handle = r.handle;
    return rc;
}

/* Tries every handle op on `handle`; counts the answers that are not EBADF. */
static int accepted(int mount, uint64_t handle, const char *what)
{
    int n = 0;
    for (size_t i = 0; i < sizeof handle_ops / sizeof *handle_ops; i++) {
        int64_t rc = on_handle(handle_ops[i], mount, handle);
        if (rc != -EBADF) {
            if (n++ == 0)
                printf("%s %#llx: op %d answered %lld\n", what, (unsigned long long)handle, handle_ops[i],
                       (long long)rc);
        }
    }
    return n;
}

static int forge(void)
{
    int n = 0, tried = 0;
    for (uint64_t h = 0; h < 1100; h++, tried++)
        n += accepted(0, h, "forged") != 0;
    const uint64_t high[] = {~0ull,          1ull << 63, 0xffffffffull, 1ull << 32,
                             1ull << 48 | 1, 0x100,      0x101,         0x1ff};
    for (size_t i = 0; i < sizeof high / sizeof *high; i++, tried++)
        n += accepted(0, high[i], "forged") != 0;
    printf("forge: %d of %d handles accepted\n", n, tried);
    return n != 0;
}

static int stale(void)
{
    uint64_t h, h2;
    int bad = 0;
    printf("open in.txt: %lld\n", (long long)open_file(0, "in.txt", &h));
    printf("pread: %lld\n", (long long)on_handle(PREAD, 0, h));
    int flips = 0;
    for (int bit = 0; bit < 64; bit++)
        flips += accepted(0, h ^ (1ull << bit), "flipped") != 0;
    printf("bit flips accepted: %d of 64\n", flips);
    if (mounts > 1)
        printf("on mount 1: %s\n", accepted(1, h, "other mount") ? "accepted" : "EBADF");
    printf("close: %lld\n", (long long)on_handle(CLOSE, 0, h));
    printf("after close: %s\n", accepted(0, h, "closed") ? "accepted" : "EBADF");
    printf("open in2.txt: %lld\n", (long long)open_file(0, "in2.txt", &h2));
    printf("old handle after a new open: %s\n", accepted(0, h, "stale") ? "accepted" : "EBADF");
    printf("new handle: %s\n", on_handle(FSTAT, 0, h2) == 0 ? "works" : "fails");
    printf("close new: %lld\n", (long long)on_handle(CLOSE, 0, h2));
    return bad;
}

static void show(const char *what, int64_t rc) { printf("%s: %lld\n", what, (long long)rc); }

static int pointers(void)
{
    uint64_t h;
    open_file(0, "in.txt", &h);
    uint32_t end = (uint32_t)(__builtin_wasm_memory_size(0) * 65536);
    /* the request itself outside memory, or misaligned */
    show("request at 0xfffffff8", mount_call((void *)0xfffffff8u));
    show("request across the end", mount_call((void *)(uintptr_t)(end - 48)));
    show("request misaligned", mount_call((void *)((uintptr_t)scratch + 1)));
    struct request r;
    /* buffers outside memory */
    const uint32_t bad[][2] = {{0xfffffff0u, 64}, {end - 8, 64}, {(uint32_t)(uintptr_t)scratch, 0xffffffffu}};
    const char *where[] = {"at 0xfffffff0", "across the end of memory", "of 4 GiB"};
    for (int i = 0; i < 3; i++) {
        for (int op = PREAD; op <= PWRITE; op++) {
            r = (struct request){.op = op, .handle = h, .ptr = bad[i][0], .len = bad[i][1]};
            printf("%s %s: %lld\n", op == PREAD ? "pread" : "pwrite", where[i], (long long)call(&r));
        }
        r = (struct request){.op = FSTAT, .handle = h, .ptr = bad[i][0], .len = bad[i][1]};
        show("fstat to a bad buffer", call(&r));
        r = (struct request){.op = READDIR, .handle = h, .ptr = bad[i][0], .len = bad[i][1]};
        show("readdir to a bad buffer", call(&r));
        r = (struct request){
            .op = STAT, .path = bad[i][0], .path_len = bad[i][1], .ptr = (uint32_t)(uintptr_t)scratch};
        show("stat of a bad path", call(&r));
        r = (struct request){
            .op = OPEN, .path = (uint32_t)(uintptr_t)"in.txt", .path_len = 6, .ptr = bad[i][0], .len = 64};
        show("open with a bad stat buffer", call(&r));
        r = (struct request){.op = RENAME,
                             .path = (uint32_t)(uintptr_t)"in.txt",
                             .path_len = 6,
                             .path2 = bad[i][0],
                             .path2_len = bad[i][1]};
        show("rename to a bad path", call(&r));
    }
    /* fields out of their range */
    const int ops[] = {0, 20, 99, -1, 0x7fffffff}; /* 20: the first op number past the table */
    for (int i = 0; i < 5; i++) {
        r = (struct request){.op = ops[i], .handle = h};
        printf("op %d: %lld\n", ops[i], (long long)call(&r));
    }
    const int ids[] = {-1, 2, 64, 0x7fffffff};
    for (int i = 0; i < 4; i++) {
        r = (struct request){.op = FSTAT, .mount = ids[i], .handle = h, .ptr = (uint32_t)(uintptr_t)scratch};
        printf("mount %d: %lld\n", ids[i], (long long)call(&r));
    }
    r = (struct request){
        .op = PREAD, .handle = h, .ptr = (uint32_t)(uintptr_t)scratch, .len = 8, .offset = -5};
    show("pread at offset -5", call(&r));
    r = (struct request){
        .op = PREAD, .handle = h, .ptr = (uint32_t)(uintptr_t)scratch, .len = 8, .offset = INT64_MAX};
    show("pread at offset 2^63-1", call(&r));
    r = (struct request){.op = FTRUNCATE, .handle = h, .offset = -1};
    show("ftruncate to -1", call(&r));
    r = (struct request){.op = FTRUNCATE, .handle = h, .offset = INT64_MAX};
    show("ftruncate to 2^63-1", call(&r));
    /* the other imports that take addresses */
    show("mount_list into 0xfffffff0", mount_list((void *)0xfffffff0u, 100));
    show("mount_list across the end", mount_list((void *)(uintptr_t)(end - 2), 0x7fffffff));
    show("stamp_ticker at 0xfffffff0", stamp_ticker((void *)0xfffffff0u));
    show("stamp_ticker across the end", stamp_ticker((void *)(uintptr_t)(end - 8)));
    show("stamp_ticker misaligned", stamp_ticker((void *)(((uintptr_t)scratch + 15) / 16 * 16 + 8)));
    show("close", on_handle(CLOSE, 0, h));
    return 0;
}

static int files(void)
{
    /* none of these is in turn: no request of the files API is being served */
    uint32_t list[4] = {0xfffffff0u, 64, 16, 64};
    files_pieces(list, 2, 1);
    puts("files_pieces (copy in): returned");
    files_pieces(list, 2, 2);
    puts("files_pieces (copy out): returned");
    files_pieces((void *)0xfffffff0u, 1000, 2);
    puts("files_pieces (bad list): returned");
    files_stat(0100644, 1ll << 40, 1, 1, 0, 0, 0);
    puts("files_stat: returned");
    files_entry((void *)0xfffffff0u, 100, 8);
    puts("files_entry: returned");
    files_done(0);
    puts("files_done: returned");
    /* the preloaded files' steps were all taken before main (there were none): no step */
    static char request[3 * 4096];
    printf("files_preload_next (bad address): %d\n", (int)files_preload_next((void *)0xfffffff0u));
    printf("files_preload_next (none left): %d\n", (int)files_preload_next(request));
    return 0;
}

static uint64_t rng;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Every handle the host handed out (a set): the fuzzer's other handles are forged. */
#define GIVEN_SLOTS (1 << 16)
static uint64_t given[GIVEN_SLOTS];
static size_t given_count;
static size_t given_slot(uint64_t h)
{
    size_t i = (size_t)((h * 0x9e3779b97f4a7c15ull) >> 48);
    while (given[i] != 0 && given[i] != h)
        i = (i + 1) % GIVEN_SLOTS;
    return i;
}
static void give(uint64_t h)
{
    size_t i = given_slot(h);
    if (h != 0 && given[i] == 0 && given_count < GIVEN_SLOTS / 2) {
        given[i] = h;
        given_count++;
    }
}
static int was_given(uint64_t h) { return h != 0 && given[given_slot(h)] == h; }

static uint32_t any_address(uint32_t end)
{
    switch (next() % 5) {
    case 0:
        return (uint32_t)(uintptr_t)scratch + (uint32_t)(next() % 2048);
    case 1:
        return end - (uint32_t)(next() % 128);
    case 2:
        return 0xffffffffu - (uint32_t)(next() % 128);
    case 3:
        return end + (uint32_t)(next() % 0x10000000u);
    default:
        return (uint32_t)next() | 0x80000000u;
    }
}

static int fuzz(uint64_t seed, long ms)
{
    rng = seed * 2654435761u + 1;
    uint64_t known[8] = {0};
    int nknown = 0;
    uint32_t end = (uint32_t)(__builtin_wasm_memory_size(0) * 65536);
    static const char *names[] = {"f0", "f1", "d0",   "d0/f2",       "in.txt",
                                  "",   "..", "../x", "/etc/passwd", "f0/.."};
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long calls = 0, accepted_forged = 0, positive = 0;
    for (;; calls++) {
        if ((calls & 63) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
                break;
        }
        struct request r = {0};
        r.op = (int32_t)(next() % 20);
        r.mount = next() % 8 ? (int32_t)(next() % (unsigned)(mounts + 1)) : (int32_t)next();
        switch (next() % 4) {
        case 0:
            r.handle = nknown ? known[next() % nknown] : 0;
            break;
        case 1:
            r.handle = nknown ? known[next() % nknown] ^ (1ull << (next() % 64)) : 0;
            break;
        case 2:
            r.handle = next() % 1100;
            break;
        default:
            r.handle = next();
        }
        r.flags = (int32_t)(next() % 4 ? next() % 0x20000 : next());
        r.offset = next() % 4 ? (int64_t)(next() % 100000) : (int64_t)next();
        r.ptr = next() % 2 ? (uint32_t)(uintptr_t)scratch : any_address(end);
        r.len = next() % 2 ? (uint32_t)(next() % 2048) : (uint32_t)next();
        if (r.ptr == (uint32_t)(uintptr_t)scratch && r.len > 2048)
            r.len = (uint32_t)(next() % 2048);
        const char *name = names[next() % 10];
        r.path = next() % 4 ? (uint32_t)(uintptr_t)name : any_address(end);
        r.path_len = r.path == (uint32_t)(uintptr_t)name ? (uint32_t)strlen(name) : (uint32_t)next() % 4096;
        r.path2 = (uint32_t)(uintptr_t)names[next() % 10];
        r.path2_len = (uint32_t)strlen((const char *)(uintptr_t)r.path2);
        r.mode = (uint32_t)next();
        for (int i = 0; i < 4; i++)
            r.times[i] = (int64_t)next();
        if (next() % 64 == 0) { /* the request itself anywhere */
            int32_t rc = mount_call((void *)(uintptr_t)any_address(end));
            if (rc != -EFAULT && rc != 0)
                printf("fuzz: a request at a bad address answered %d\n", rc);
            continue;
        }
        if (r.op == OPEN && given_count >= GIVEN_SLOTS / 2)
            r.op = STAT; /* no room to remember another handle */
        int64_t rc = call(&r);
        int handle_op = r.op >= CLOSE && r.op <= READDIR ? 1 : r.op == FUTIMENS;
        int forged = handle_op && !was_given(r.handle);
        if (r.op == OPEN && rc == 0) {
            give(r.handle);
            known[nknown < 8 ? nknown++ : next() % 8] = r.handle;
        }
        if (forged && rc != -EBADF && rc != -ENODEV && rc > -1000) {
            if (accepted_forged++ < 5)
                printf("fuzz: forged handle %#llx op %d answered %lld\n", (unsigned long long)r.handle, r.op,
                       (long long)rc);
        }
        if (rc >= 0)
            positive++;
    }
    printf("fuzz: %s calls, %ld forged handles accepted, %s\n", calls > 100 ? "many" : "few", accepted_forged,
           positive > 0 ? "some succeeded" : "none succeeded");
    fprintf(stderr, "fuzz: %ld calls, %ld succeeded\n", calls, positive);
    return accepted_forged != 0;
}

int main(int argc, char **argv)
{
    char list[256];
    mounts = 0;
    int need = mount_list(list, sizeof list);
    for (int i = 0; i < need && need <= (int)sizeof list; i++)
        mounts += list[i] == 0;
    const char *mode = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(mode, "forge"))
        return forge();
    if (!strcmp(mode, "stale"))
        return stale();
    if (!strcmp(mode, "pointers"))
        return pointers();
    if (!strcmp(mode, "files"))
        return files();
    if (!strcmp(mode, "fuzz") && argc > 3)
        return fuzz(strtoull(argv[2], NULL, 10), atol(argv[3]));
    fprintf(stderr, "usage: hostile forge|stale|pointers|files|fuzz SEED MS\n");
    return 2;
}
