/* Path walks through directories that other threads change, for the lock-free walk
 * (runtime/fs/core/path.c, reader_slots.c), run under ThreadSanitizer, AddressSanitizer+UBSan and as
 * wasm. Walkers stat and open files by absolute paths and through directory fds while churners,
 * in the same directory:
 *  - create and remove many names (the hash table and the order array grow and are compacted);
 *  - replace the walked files by rename (the old inode is freed while walkers may be on it);
 *  - rename a subdirectory away and back, and remove and remake another.
 * Checked: a file that always exists under its name is always found, with one of the sizes its
 * versions have; a name that comes and goes is found or ENOENT, nothing else; the ASan run
 * catches a walker reading a freed directory entry or inode. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../test_util.h"

#define D SPINDLE_AT_FDCWD
#define KEEP 8
#define WALKERS 4
#define CHURNERS 2
#define MIN_WALKS 20000
#define MIN_CHURNS 300
#define NAMES_PER_CHURN 64

static atomic_long walks, churns, bad;
static atomic_int churners_left = CHURNERS, started;
static int root_fd, dir_fd;

static void start_together(void)
{
    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < WALKERS + CHURNERS)
        sched_yield();
}

static void fail(const char *what, const char *path, long long got)
{
    fprintf(stderr, "walk stress: %s %s gave %lld\n", what, path, got);
    atomic_fetch_add(&bad, 1);
}

/* keep-i always exists; its versions are 100 + i or 200 + i bytes long. */
static bool keep_size_ok(int i, int64_t size) { return size == 100 + i || size == 200 + i; }

static void write_file(const char *path, size_t size)
{
    static const char bytes[512] = {0};
    int fd = spindle_fs_openat(D, path, SPINDLE_O_WRONLY | SPINDLE_O_CREAT | SPINDLE_O_TRUNC, 0644);
    if (fd < 0 || spindle_fs_write(fd, bytes, size) != (int64_t)size)
        fail("write", path, fd);
    spindle_fs_close(fd);
}

static void walk_once(unsigned n)
{
    int i = (int)(n % KEEP);
    char path[64];
    struct spindle_stat st;
    snprintf(path, sizeof path, "/walk/dir/keep-%d", i);
    int rc = spindle_fs_fstatat(D, path, &st, 0);
    if (rc != 0 || !keep_size_ok(i, st.size))
        fail("stat", path, rc != 0 ? rc : st.size);
    /* the same file relative to a directory fd: from the root, and from its own directory */
    snprintf(path, sizeof path, n % 2 ? "walk/dir/keep-%d" : "keep-%d", i);
    int fd = spindle_fs_openat(n % 2 ? root_fd : dir_fd, path, SPINDLE_O_RDONLY, 0);
    if (fd < 0 || spindle_fs_fstat(fd, &st) != 0 || !keep_size_ok(i, st.size))
        fail("open", path, fd);
    if (fd >= 0)
        spindle_fs_close(fd);
    /* names that come and go: found whole, or ENOENT */
    rc = spindle_fs_fstatat(D, "/walk/dir/sub/inner", &st, 0);
    if (!(rc == 0 && st.size == 7) && rc != -SPINDLE_ENOENT)
        fail("stat", "/walk/dir/sub/inner", rc);
    rc = spindle_fs_fstatat(dir_fd, "gone/.", &st, 0);
    if (rc != 0 && rc != -SPINDLE_ENOENT)
        fail("stat", "gone/.", rc);
    snprintf(path, sizeof path, "/walk/dir/t%u-%u", n % CHURNERS, n % NAMES_PER_CHURN);
    rc = spindle_fs_fstatat(D, path, &st, 0);
    if (rc != 0 && rc != -SPINDLE_ENOENT)
        fail("stat", path, rc);
}

static void *walker(void *arg)
{
    unsigned n = (unsigned)(uintptr_t)arg;
    start_together();
    while (atomic_load(&churners_left) > 0 || atomic_load(&walks) < MIN_WALKS) {
        walk_once(n++);
        /* Past the walks needed, each walk gives way to the churners, which are what the run
         * waits for: on two cores the walkers otherwise took most of the CPU (1.3M walks). */
        if (atomic_fetch_add_explicit(&walks, 1, memory_order_relaxed) >= MIN_WALKS)
            sched_yield();
    }
    return NULL;
}

static void churn_once(int t, int round)
{
    char path[64], other[64];
    for (int k = 0; k < NAMES_PER_CHURN; k++) { /* grow the directory, then empty it again */
        snprintf(path, sizeof path, "/walk/dir/t%d-%d", t, k);
        write_file(path, 1);
    }
    for (int k = 0; k < NAMES_PER_CHURN; k++) {
        snprintf(path, sizeof path, "/walk/dir/t%d-%d", t, k);
        if (spindle_fs_unlinkat(D, path, 0) != 0)
            fail("unlink", path, -1);
    }
    int i = (t + round) % KEEP; /* a new version of keep-i replaces the old one */
    snprintf(path, sizeof path, "/walk/dir/new%d-%d", t, i);
    snprintf(other, sizeof other, "/walk/dir/keep-%d", i);
    write_file(path, (size_t)((round % 2 ? 200 : 100) + i));
    int rc = spindle_fs_renameat(D, path, D, other);
    if (rc != 0)
        fail("rename", other, rc);
    if (t == 0) { /* the subdirectory away and back */
        rc = spindle_fs_renameat(D, "/walk/dir/sub", D, "/walk/away");
        if (rc == 0)
            rc = spindle_fs_renameat(D, "/walk/away", D, "/walk/dir/sub");
        if (rc != 0)
            fail("rename", "/walk/dir/sub", rc);
    } else { /* a directory removed and made again */
        rc = spindle_fs_unlinkat(D, "/walk/dir/gone", SPINDLE_AT_REMOVEDIR);
        if (rc == 0)
            rc = spindle_fs_mkdirat(D, "/walk/dir/gone", 0755);
        if (rc != 0)
            fail("rmdir/mkdir", "/walk/dir/gone", rc);
    }
}

static void *churner(void *arg)
{
    int t = (int)(uintptr_t)arg;
    start_together();
    for (int round = 0; round < MIN_CHURNS || atomic_load(&walks) < MIN_WALKS; round++) {
        churn_once(t, round);
        atomic_fetch_add_explicit(&churns, 1, memory_order_relaxed);
    }
    atomic_fetch_sub(&churners_left, 1);
    return NULL;
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    CHECK_OK(spindle_fs_mkdirat(D, "/walk", 0755));
    CHECK_OK(spindle_fs_mkdirat(D, "/walk/dir", 0755));
    CHECK_OK(spindle_fs_mkdirat(D, "/walk/dir/sub", 0755));
    CHECK_OK(spindle_fs_mkdirat(D, "/walk/dir/gone", 0755));
    write_file("/walk/dir/sub/inner", 7);
    for (int i = 0; i < KEEP; i++) {
        char path[64];
        snprintf(path, sizeof path, "/walk/dir/keep-%d", i);
        write_file(path, (size_t)(100 + i));
    }
    root_fd = (int)CHECK_OK(spindle_fs_openat(D, "/", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    dir_fd = (int)CHECK_OK(spindle_fs_openat(D, "/walk/dir", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    pthread_t threads[WALKERS + CHURNERS];
    for (int t = 0; t < WALKERS; t++)
        pthread_create(&threads[t], NULL, walker, (void *)(uintptr_t)(t * 7919));
    for (int t = 0; t < CHURNERS; t++)
        pthread_create(&threads[WALKERS + t], NULL, churner, (void *)(uintptr_t)t);
    for (int t = 0; t < WALKERS + CHURNERS; t++)
        pthread_join(threads[t], NULL);
    CHECK(atomic_load(&bad) == 0);
    spindle_fs_close(root_fd);
    spindle_fs_close(dir_fd);
    printf("walk stress: %ld walks, %ld churns, %ld failures\n", atomic_load(&walks), atomic_load(&churns),
           atomic_load(&bad));
    return report("walk stress");
}
