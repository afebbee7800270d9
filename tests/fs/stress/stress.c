/* 8-thread stress of the filesystem core, run under ThreadSanitizer and under
 * AddressSanitizer+UBSan. Threads create, write, append, rename, unlink and
 * list in shared directories while invariants are checked:
 *  - appends through O_APPEND fds never overlap or vanish (every record of
 *    every thread is in the log exactly once, intact, in per-thread order);
 *  - a pwrite is atomic for a concurrent pread of the same range;
 *  - a file renamed over a shared name is always seen complete (rename
 *    replaces atomically), also by readers holding it open after unlink;
 *  - a thread's fd always refers to its own file (no fd confusion);
 *  - readdir during concurrent changes lists permanent entries exactly once;
 *  - directories shuffled between two parents by cross-directory renames
 *    (including attempts to move a directory into its own subtree) never
 *    deadlock and never get lost. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../test_util.h"

#define THREADS 8
#define ROUNDS 1000
#define APPENDS_PER_ROUND 4
#define REGION 4096
#define ANCHORS 20

#define D SPINDLE_AT_FDCWD

struct record {
    uint32_t magic, thread, seq, check;
};

static atomic_int failures;

#define EXPECT(cond, ...)                                                                                    \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "stress: " __VA_ARGS__);                                                         \
            fprintf(stderr, " (line %d)\n", __LINE__);                                                       \
            atomic_fetch_add(&failures, 1);                                                                  \
        }                                                                                                    \
    } while (0)

static uint32_t record_check(const struct record *r)
{
    return r->magic ^ (r->thread * 2654435761u) ^ (r->seq * 40503u);
}

/* Content of object (thread, n): a header line then bytes derived from it. */
static size_t make_object(int thread, int n, unsigned char *buf)
{
    size_t len = 100 + (size_t)((thread * 977 + n * 131) % 9000);
    int head = snprintf((char *)buf, 64, "obj %d %d %zu\n", thread, n, len);
    for (size_t i = (size_t)head; i < len; i++)
        buf[i] = (unsigned char)(thread * 31 + n * 7 + i);
    return len;
}

static bool object_valid(const unsigned char *buf, size_t got)
{
    int thread, n;
    size_t len;
    if (got < 16 || sscanf((const char *)buf, "obj %d %d %zu\n", &thread, &n, &len) != 3 || len != got)
        return false;
    static _Thread_local unsigned char expect[10000];
    make_object(thread, n, expect);
    return memcmp(buf, expect, len) == 0;
}

static void append_records(int log_fd, int thread, uint32_t *seq)
{
    for (int i = 0; i < APPENDS_PER_ROUND; i++) {
        struct record r = {0x5eed1e55u, (uint32_t)thread, (*seq)++, 0};
        r.check = record_check(&r);
        EXPECT(spindle_fs_write(log_fd, &r, sizeof r) == (int64_t)sizeof r, "append failed");
    }
}

static void region_write_and_read(int shared_fd, int thread, int round)
{
    static _Thread_local unsigned char block[REGION], back[REGION];
    memset(block, (unsigned char)(thread * 16 + round % 16), REGION);
    EXPECT(spindle_fs_pwrite(shared_fd, block, REGION, (int64_t)thread * REGION) == REGION, "pwrite");
    /* read a neighbour's region: it must be uniform (never half-written) */
    int other = (thread + 1 + round) % THREADS;
    int64_t got = spindle_fs_pread(shared_fd, back, REGION, (int64_t)other * REGION);
    EXPECT(got == REGION, "pread short %lld", (long long)got);
    bool uniform = true;
    for (int i = 1; i < REGION; i++)
        uniform &= back[i] == back[0];
    EXPECT(uniform, "torn region of thread %d", other);
}

static void publish_object(int thread, int round)
{
    static _Thread_local unsigned char buf[10000], back[10000];
    char tmp[64], final[64];
    snprintf(tmp, sizeof tmp, "/s/work/t%d-%d", thread, round);
    size_t len = make_object(thread, round, buf);
    int fd = spindle_fs_openat(D, tmp, SPINDLE_O_RDWR | SPINDLE_O_CREAT | SPINDLE_O_EXCL, 0644);
    EXPECT(fd >= 0, "create %s: %d", tmp, fd);
    if (fd < 0)
        return;
    EXPECT(spindle_fs_write(fd, buf, len) == (int64_t)len, "write object");
    /* fd confusion check: this fd must read back exactly this object */
    EXPECT(spindle_fs_pread(fd, back, sizeof back, 0) == (int64_t)len && memcmp(back, buf, len) == 0,
           "fd %d does not hold %s", fd, tmp);
    spindle_fs_close(fd);
    snprintf(final, sizeof final, "/s/shared%d/current-%d", round % 2, round % 3);
    EXPECT(spindle_fs_renameat(D, tmp, D, final) == 0, "rename to %s", final);
}

static void read_current(int round)
{
    static _Thread_local unsigned char buf[10001];
    char path[64];
    snprintf(path, sizeof path, "/s/shared%d/current-%d", (round + 1) % 2, round % 3);
    int fd = spindle_fs_openat(D, path, SPINDLE_O_RDONLY, 0);
    if (fd < 0) {
        EXPECT(fd == -SPINDLE_ENOENT, "open current: %d", fd);
        return;
    }
    /* unlinking it now must not disturb our read */
    if (round % 5 == 0)
        spindle_fs_unlinkat(D, path, 0);
    int64_t got = spindle_fs_read(fd, buf, sizeof buf);
    EXPECT(got > 0 && object_valid(buf, (size_t)got), "incomplete object in %s (%lld bytes)", path,
           (long long)got);
    spindle_fs_close(fd);
}

static void list_and_check(int which)
{
    char path[32];
    snprintf(path, sizeof path, "/s/shared%d", which);
    int dir = spindle_fs_openat(D, path, SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
    EXPECT(dir >= 0, "open dir");
    if (dir < 0)
        return;
    int anchors_seen[ANCHORS] = {0};
    struct spindle_dirent ents[7]; /* small batches: many cookie resumptions */
    uint64_t cookie = 0;
    int n;
    while ((n = spindle_fs_readdir(dir, cookie, ents, 7)) > 0) {
        for (int i = 0; i < n; i++) {
            int a;
            if (sscanf(ents[i].name, "anchor-%d", &a) == 1 && a >= 0 && a < ANCHORS)
                anchors_seen[a]++;
            cookie = ents[i].next_cookie;
        }
    }
    EXPECT(n == 0, "readdir error %d", n);
    for (int a = 0; a < ANCHORS; a++)
        EXPECT(anchors_seen[a] == 1, "anchor-%d seen %d times", a, anchors_seen[a]);
    spindle_fs_close(dir);
}

static void shuffle_dirs(int thread, int round)
{
    /* movers: dir m<thread> hops between the two shared dirs */
    char from[64], to[64];
    snprintf(from, sizeof from, "/s/shared%d/m%d", round % 2, thread);
    snprintf(to, sizeof to, "/s/shared%d/m%d", (round + 1) % 2, thread);
    int rc = spindle_fs_renameat(D, from, D, to);
    EXPECT(rc == 0, "move %s: %d", from, rc);
    /* nest/un-nest: try to move shared0/nest-a into nest-b and back, while
     * another thread does the reverse; loops must be refused with EINVAL */
    if (thread < 2) {
        const char *a = thread == 0 ? "/s/nest-a" : "/s/nest-b";
        const char *b = thread == 0 ? "/s/nest-b/inner" : "/s/nest-a/inner";
        rc = spindle_fs_renameat(D, a, D, b);
        EXPECT(rc == 0 || rc == -SPINDLE_EINVAL || rc == -SPINDLE_ENOENT, "nest: %d", rc);
        if (rc == 0) {
            rc = spindle_fs_renameat(D, b, D, a);
            EXPECT(rc == 0, "unnest: %d", rc);
        }
    }
}

/* All threads fight over three directory names: mkdir, rmdir, renaming one
 * over another (replacing an empty directory), creating and removing a file
 * inside. Every result must be a legitimate one; the link counts are checked
 * at the end. */
static void contend_dirs(int thread, int round)
{
    static const char *const names[] = {"/s/shared0/c1", "/s/shared1/c1", "/s/shared0/c2"};
    const char *a = names[(thread + round) % 3];
    const char *b = names[(thread + 2 * round + 1) % 3];
    char file[64];
    int rc;
    switch ((thread + round) % 4) {
    case 0:
        rc = spindle_fs_mkdirat(D, a, 0755);
        EXPECT(rc == 0 || rc == -SPINDLE_EEXIST, "mkdir %s: %d", a, rc);
        break;
    case 1:
        rc = spindle_fs_unlinkat(D, a, SPINDLE_AT_REMOVEDIR);
        EXPECT(rc == 0 || rc == -SPINDLE_ENOENT || rc == -SPINDLE_ENOTEMPTY, "rmdir %s: %d", a, rc);
        break;
    case 2:
        rc = spindle_fs_renameat(D, a, D, b);
        EXPECT(rc == 0 || rc == -SPINDLE_ENOENT || rc == -SPINDLE_ENOTEMPTY, "rename %s %s: %d", a, b, rc);
        break;
    default:
        snprintf(file, sizeof file, "%s/f%d", a, thread);
        rc = spindle_fs_openat(D, file, SPINDLE_O_WRONLY | SPINDLE_O_CREAT, 0644);
        EXPECT(rc >= 0 || rc == -SPINDLE_ENOENT, "create %s: %d", file, rc);
        if (rc >= 0)
            spindle_fs_close(rc);
        rc = spindle_fs_unlinkat(D, file, 0);
        EXPECT(rc == 0 || rc == -SPINDLE_ENOENT, "unlink %s: %d", file, rc);
        break;
    }
}

static void *worker(void *arg)
{
    int thread = (int)(intptr_t)arg;
    int log_fd = spindle_fs_openat(D, "/s/log", SPINDLE_O_WRONLY | SPINDLE_O_APPEND, 0);
    int shared_fd = spindle_fs_openat(D, "/s/shared-data", SPINDLE_O_RDWR, 0);
    EXPECT(log_fd >= 0 && shared_fd >= 0, "open shared files");
    uint32_t seq = 0;
    for (int round = 0; round < ROUNDS; round++) {
        append_records(log_fd, thread, &seq);
        region_write_and_read(shared_fd, thread, round);
        publish_object(thread, round);
        read_current(round);
        if (round % 4 == thread % 4)
            list_and_check(round % 2);
        shuffle_dirs(thread, round);
        contend_dirs(thread, round);
    }
    spindle_fs_close(log_fd);
    spindle_fs_close(shared_fd);
    return NULL;
}

static void verify_log(void)
{
    int fd = spindle_fs_openat(D, "/s/log", SPINDLE_O_RDONLY, 0);
    struct spindle_stat st;
    spindle_fs_fstat(fd, &st);
    const int64_t per_thread = (int64_t)ROUNDS * APPENDS_PER_ROUND;
    CHECK(st.size == THREADS * per_thread * (int64_t)sizeof(struct record));
    uint32_t next[THREADS] = {0};
    struct record r;
    int bad = 0;
    while (spindle_fs_read(fd, &r, sizeof r) == (int64_t)sizeof r) {
        if (r.magic != 0x5eed1e55u || r.thread >= THREADS || r.check != record_check(&r) ||
            r.seq != next[r.thread]) {
            bad++;
            continue;
        }
        next[r.thread]++;
    }
    CHECK(bad == 0);
    bool all = true;
    for (int t = 0; t < THREADS; t++)
        all &= next[t] == per_thread;
    CHECK(all);
    spindle_fs_close(fd);
}

/* nlink of a directory must be 2 + its subdirectories */
static bool nlink_consistent(const char *path)
{
    int dir = spindle_fs_openat(D, path, SPINDLE_O_RDONLY, 0);
    struct spindle_dirent ents[16];
    uint64_t cookie = 2;
    int n, subdirs = 0;
    while ((n = spindle_fs_readdir(dir, cookie, ents, 16)) > 0) {
        for (int i = 0; i < n; i++)
            subdirs += ents[i].type == SPINDLE_DT_DIR;
        cookie = ents[n - 1].next_cookie;
    }
    struct spindle_stat st;
    spindle_fs_fstat(dir, &st);
    spindle_fs_close(dir);
    if (st.nlink != (uint64_t)(2 + subdirs))
        fprintf(stderr, "%s: nlink %llu with %d subdirectories\n", path, (unsigned long long)st.nlink,
                subdirs);
    return st.nlink == (uint64_t)(2 + subdirs);
}

static int count_entries(const char *path)
{
    int dir = spindle_fs_openat(D, path, SPINDLE_O_RDONLY, 0);
    struct spindle_dirent ents[16];
    uint64_t cookie = 2; /* skip . and .. */
    int n, total = 0;
    while ((n = spindle_fs_readdir(dir, cookie, ents, 16)) > 0) {
        total += n;
        cookie = ents[n - 1].next_cookie;
    }
    spindle_fs_close(dir);
    return total;
}

/* Single-threaded, but under TSan it checks the lock order: a directory
 * moved under a parent with a higher inode number, renamed there, then
 * removed must never have its lock and its parent's taken in both orders. */
static void directory_lock_order(void)
{
    CHECK(spindle_fs_mkdirat(D, "/s/order-child", 0755) == 0);
    CHECK(spindle_fs_mkdirat(D, "/s/order-parent", 0755) == 0);
    CHECK(spindle_fs_renameat(D, "/s/order-child", D, "/s/order-parent/a") == 0);
    CHECK(spindle_fs_renameat(D, "/s/order-parent/a", D, "/s/order-parent/b") == 0);
    CHECK(spindle_fs_unlinkat(D, "/s/order-parent/b", SPINDLE_AT_REMOVEDIR) == 0);
    CHECK(spindle_fs_unlinkat(D, "/s/order-parent", SPINDLE_AT_REMOVEDIR) == 0);
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    CHECK(spindle_fs_mkdirat(D, "/s", 0755) == 0);
    directory_lock_order();
    spindle_fs_mkdirat(D, "/s/work", 0755);
    spindle_fs_mkdirat(D, "/s/shared0", 0755);
    spindle_fs_mkdirat(D, "/s/shared1", 0755);
    spindle_fs_mkdirat(D, "/s/nest-a", 0755);
    spindle_fs_mkdirat(D, "/s/nest-b", 0755);
    spindle_fs_close(spindle_fs_openat(D, "/s/log", SPINDLE_O_WRONLY | SPINDLE_O_CREAT, 0644));
    int shared = spindle_fs_openat(D, "/s/shared-data", SPINDLE_O_WRONLY | SPINDLE_O_CREAT, 0644);
    spindle_fs_ftruncate(shared, THREADS * REGION);
    spindle_fs_close(shared);
    char path[64];
    for (int which = 0; which < 2; which++) {
        for (int a = 0; a < ANCHORS; a++) {
            snprintf(path, sizeof path, "/s/shared%d/anchor-%d", which, a);
            spindle_fs_close(spindle_fs_openat(D, path, SPINDLE_O_WRONLY | SPINDLE_O_CREAT, 0644));
        }
    }
    for (int t = 0; t < THREADS; t++) {
        snprintf(path, sizeof path, "/s/shared0/m%d", t);
        spindle_fs_mkdirat(D, path, 0755);
    }
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);

    CHECK(atomic_load(&failures) == 0);
    verify_log();
    /* every mover dir ended where its last move put it; the nest dirs are
     * back at the top; work/ is empty (everything was renamed away) */
    int movers = 0;
    for (int t = 0; t < THREADS; t++) {
        snprintf(path, sizeof path, "/s/shared%d/m%d", ROUNDS % 2, t);
        struct spindle_stat st;
        movers += spindle_fs_fstatat(D, path, &st, 0) == 0;
    }
    CHECK(movers == THREADS);
    struct spindle_stat st;
    CHECK(spindle_fs_fstatat(D, "/s/nest-a", &st, 0) == 0 && spindle_fs_fstatat(D, "/s/nest-b", &st, 0) == 0);
    CHECK(count_entries("/s/nest-a") == 0 && count_entries("/s/nest-b") == 0);
    CHECK(count_entries("/s/work") == 0);
    CHECK(nlink_consistent("/s") && nlink_consistent("/s/shared0") && nlink_consistent("/s/shared1"));
    CHECK(nlink_consistent("/s/nest-a") && nlink_consistent("/s/nest-b"));
    /* no fd leaked: the lowest fd is free again */
    int fd = spindle_fs_openat(D, "/s/log", SPINDLE_O_RDONLY, 0);
    CHECK(fd == SPINDLE_FS_FIRST_FD);
    spindle_fs_close(fd);
    return report("fs stress");
}
