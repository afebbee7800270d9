/* Threads creating and removing the same few names in one directory, for open(O_CREAT), which
 * makes the new inode before it write-locks the directory (runtime/fs/ops/ops_open.c): the name may
 * appear or vanish between the shared lookup and the insertion. Run under ThreadSanitizer,
 * AddressSanitizer+UBSan (a prepared inode that is never linked must be freed: LeakSanitizer)
 * and as wasm. Checked:
 *  - exclusive creators and removers: every name exists at the end exactly when it was created
 *    once more than it was removed (two O_EXCL creates of one name never both succeed);
 *  - plain O_CREAT openers racing with them always get a regular file (never ENOENT or EEXIST);
 *  - the directory's times never go back while names are added and removed;
 *  - no fd is left open. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "../test_util.h"

#define D SPINDLE_AT_FDCWD
#define NAMES 4
#define EXCL_THREADS 3
#define OPENERS 2
#define REMOVERS 2
#define ROUNDS 20000

static atomic_long created[NAMES], removed[NAMES], bad;
static atomic_int started;

static void name_of(int i, char *out) { snprintf(out, 32, "/race/n%d", i); }

static void start_together(void)
{
    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < EXCL_THREADS + OPENERS + REMOVERS + 1)
        sched_yield();
}

static void fail(const char *what, long long got)
{
    fprintf(stderr, "create race: %s gave %lld\n", what, got);
    atomic_fetch_add(&bad, 1);
}

static void *exclusive_creator(void *arg)
{
    int seed = (int)(intptr_t)arg;
    start_together();
    for (int r = 0; r < ROUNDS; r++) {
        int i = (r + seed) % NAMES;
        char name[32];
        name_of(i, name);
        int fd = spindle_fs_openat(D, name, SPINDLE_O_WRONLY | SPINDLE_O_CREAT | SPINDLE_O_EXCL, 0644);
        if (fd >= 0) {
            atomic_fetch_add(&created[i], 1);
            spindle_fs_close(fd);
        } else if (fd != -SPINDLE_EEXIST) {
            fail("O_CREAT|O_EXCL", fd);
        }
    }
    return NULL;
}

/* Plain O_CREAT, which may create too: its creations cannot be counted, so the openers share
 * names of their own ("/race/o<i>"), each removing them every other round. */
static void *plain_opener(void *arg)
{
    int seed = (int)(intptr_t)arg;
    start_together();
    for (int r = 0; r < ROUNDS; r++) {
        char name[32];
        snprintf(name, sizeof name, "/race/o%d", (r + seed) % NAMES);
        int fd = spindle_fs_openat(D, name, SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644);
        if (fd < 0) {
            fail("O_CREAT", fd);
            continue;
        }
        struct spindle_stat st;
        if (spindle_fs_fstat(fd, &st) != 0 || (st.mode & SPINDLE_S_IFMT) != SPINDLE_S_IFREG)
            fail("fstat of an O_CREAT file", st.mode);
        spindle_fs_close(fd);
        if (r % 2 == 0)
            spindle_fs_unlinkat(D, name, 0); /* ENOENT when the other opener was first */
    }
    return NULL;
}

static void *remover(void *arg)
{
    int seed = (int)(intptr_t)arg;
    start_together();
    for (int r = 0; r < ROUNDS; r++) {
        int i = (r * 3 + seed) % NAMES;
        char name[32];
        name_of(i, name);
        int rc = spindle_fs_unlinkat(D, name, 0);
        if (rc == 0)
            atomic_fetch_add(&removed[i], 1);
        else if (rc != -SPINDLE_ENOENT)
            fail("unlink", rc);
    }
    return NULL;
}

static int64_t time_ns(const struct spindle_timespec *ts) { return ts->sec * 1000000000 + ts->nsec; }

/* The directory's mtime and ctime, sampled while the others run, must never go back. */
static void *time_watcher(void *arg)
{
    (void)arg;
    start_together();
    int64_t last_m = 0, last_c = 0;
    for (int r = 0; r < ROUNDS; r++) {
        struct spindle_stat st;
        if (spindle_fs_fstatat(D, "/race", &st, 0) != 0) {
            fail("stat /race", -1);
            break;
        }
        int64_t m = time_ns(&st.mtim), c = time_ns(&st.ctim);
        if (m < last_m || c < last_c)
            fail("directory time going back (ns)", m < last_m ? m - last_m : c - last_c);
        last_m = m;
        last_c = c;
    }
    return NULL;
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    CHECK_OK(spindle_fs_mkdirat(D, "/race", 0755));
    int first_free = CHECK_OK(spindle_fs_openat(D, "/", SPINDLE_O_RDONLY, 0));
    spindle_fs_close(first_free);

    pthread_t threads[EXCL_THREADS + OPENERS + REMOVERS + 1];
    int n = 0;
    for (int t = 0; t < EXCL_THREADS; t++)
        pthread_create(&threads[n++], NULL, exclusive_creator, (void *)(intptr_t)t);
    for (int t = 0; t < OPENERS; t++)
        pthread_create(&threads[n++], NULL, plain_opener, (void *)(intptr_t)t);
    for (int t = 0; t < REMOVERS; t++)
        pthread_create(&threads[n++], NULL, remover, (void *)(intptr_t)t);
    pthread_create(&threads[n++], NULL, time_watcher, NULL);
    for (int t = 0; t < n; t++)
        pthread_join(threads[t], NULL);

    CHECK(atomic_load(&bad) == 0);
    long long total_created = 0;
    for (int i = 0; i < NAMES; i++) {
        char name[32];
        name_of(i, name);
        struct spindle_stat st;
        bool exists = spindle_fs_fstatat(D, name, &st, 0) == 0;
        long long net = atomic_load(&created[i]) - atomic_load(&removed[i]);
        if (net != (exists ? 1 : 0))
            fprintf(stderr, "create race: %s created %ld, removed %ld, exists %d\n", name,
                    (long)atomic_load(&created[i]), (long)atomic_load(&removed[i]), exists);
        CHECK(net == (exists ? 1 : 0));
        total_created += atomic_load(&created[i]);
        if (exists)
            CHECK_OK(spindle_fs_unlinkat(D, name, 0));
        snprintf(name, sizeof name, "/race/o%d", i);
        spindle_fs_unlinkat(D, name, 0);
    }
    CHECK(total_created > NAMES); /* the names really came and went */
    CHECK_OK(spindle_fs_unlinkat(D, "/race", SPINDLE_AT_REMOVEDIR)); /* empty: nothing left behind */
    int fd = CHECK_OK(spindle_fs_openat(D, "/", SPINDLE_O_RDONLY, 0)); /* no fd leaked */
    CHECK(fd == first_free);
    spindle_fs_close(fd);
    return report("fs create race");
}
