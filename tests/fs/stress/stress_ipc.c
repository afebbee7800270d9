/* Threads on pipes and locks, run under ThreadSanitizer and ASan+UBSan:
 *  - 4 writers put 512-byte records into one pipe while 2 readers take them
 *    out 512 bytes at a time and a poller waits on the read end: every record
 *    arrives once and intact, and the readers see EOF after the writers close,
 *    while another thread keeps resizing the pipe (F_SETPIPE_SZ);
 *  - 4 threads with their own open file description increment a counter in a
 *    file under a blocking OFD write lock (F_OFD_SETLKW), 4 more do the same
 *    under a blocking flock: no increment is lost (mutual exclusion);
 *  - meanwhile classic locks taken by every thread on one range never block
 *    (one owner, the process). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../test_util.h"

#define D SPINDLE_AT_FDCWD
#define WRITERS 4
#define READERS 2
#define RECORDS 2000
#define RECORD 512
#define LOCKERS 4
#define INCREMENTS 300

static int pipe_fds[2];
static atomic_int failures, records_seen, writers_left = WRITERS, readers_done;
static atomic_int seen_count[WRITERS][RECORDS];

#define EXPECT(cond, what)                                                                                   \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "stress_ipc: %s (line %d)\n", what, __LINE__);                                   \
            atomic_fetch_add(&failures, 1);                                                                  \
        }                                                                                                    \
    } while (0)

static void *write_records(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint32_t rec[RECORD / 4];
    for (int r = 0; r < RECORDS; r++) {
        for (int i = 0; i < RECORD / 4; i++)
            rec[i] = (uint32_t)(id * 1000003 + r * 7 + i);
        rec[0] = (uint32_t)id;
        rec[1] = (uint32_t)r;
        EXPECT(spindle_fs_write(pipe_fds[1], rec, RECORD) == RECORD, "short or failed record write");
    }
    if (atomic_fetch_sub(&writers_left, 1) == 1)
        spindle_fs_close(pipe_fds[1]); /* the last writer ends the stream */
    return NULL;
}

static void *read_records(void *arg)
{
    (void)arg;
    uint32_t rec[RECORD / 4];
    int64_t n;
    while ((n = spindle_fs_read(pipe_fds[0], rec, RECORD)) > 0) {
        EXPECT(n == RECORD, "a read split a record");
        uint32_t id = rec[0], r = rec[1];
        bool intact = id < WRITERS && r < RECORDS;
        for (int i = 2; intact && i < RECORD / 4; i++)
            intact = rec[i] == (uint32_t)(id * 1000003 + r * 7 + (uint32_t)i);
        EXPECT(intact, "a torn or foreign record");
        if (intact)
            atomic_fetch_add(&seen_count[id][r], 1);
        atomic_fetch_add(&records_seen, 1);
    }
    EXPECT(n == 0, "the stream ended with an error, not EOF");
    atomic_fetch_add(&readers_done, 1);
    return NULL;
}

static void *poll_reader_end(void *arg)
{
    (void)arg;
    while (atomic_load(&readers_done) < READERS) {
        struct spindle_pollfd p = {pipe_fds[0], SPINDLE_POLLIN, 0};
        int rc = spindle_fs_poll(&p, 1, 2 * 1000000); /* 2 ms, then look again */
        EXPECT(rc >= 0 && (rc == 0) == (p.revents == 0), "poll failed or miscounted");
    }
    return NULL;
}

static void *resize_pipe(void *arg)
{
    (void)arg;
    static const uint32_t sizes[] = {4096, 65536, 8192, 16384};
    for (unsigned i = 0; atomic_load(&readers_done) < READERS; i++) {
        int rc = spindle_fs_set_pipe_size(pipe_fds[0], sizes[i % 4]);
        EXPECT(rc == (int)sizes[i % 4] || rc == -SPINDLE_EBUSY, "a resize failed");
    }
    return NULL;
}

/* one increment of the 8-byte counter at offset 0 of fd's file */
static void increment(int fd)
{
    int64_t value = 0;
    EXPECT(spindle_fs_pread(fd, &value, 8, 0) == 8, "counter read");
    value++;
    EXPECT(spindle_fs_pwrite(fd, &value, 8, 0) == 8, "counter write");
}

static void *count_under_locks(void *arg)
{
    bool use_flock = (intptr_t)arg;
    const char *path = use_flock ? "/flock-counter" : "/ofd-counter";
    int fd = spindle_fs_openat(D, path, SPINDLE_O_RDWR, 0);
    EXPECT(fd >= 0, "open counter");
    enum spindle_lock_owner owner = use_flock ? SPINDLE_LOCK_FLOCK : SPINDLE_LOCK_DESCRIPTION;
    struct spindle_flock take = {SPINDLE_F_WRLCK, SPINDLE_SEEK_SET, 0, 8, 0};
    struct spindle_flock drop = {SPINDLE_F_UNLCK, SPINDLE_SEEK_SET, 0, 8, 0};
    struct spindle_flock classic = {SPINDLE_F_WRLCK, SPINDLE_SEEK_SET, 100, 10, 0};
    for (int i = 0; i < INCREMENTS; i++) {
        EXPECT(spindle_fs_setlk(fd, owner, &take, 1) == 0, "blocking lock");
        increment(fd);
        EXPECT(spindle_fs_setlk(fd, owner, &drop, 0) == 0, "unlock");
        EXPECT(spindle_fs_setlk(fd, SPINDLE_LOCK_PROCESS, &classic, 0) == 0, "classic locks conflicted");
    }
    spindle_fs_close(fd);
    return NULL;
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    CHECK(spindle_fs_pipe(pipe_fds, 0) == 0);
    for (int i = 0; i < 2; i++) {
        int fd = spindle_fs_openat(D, i ? "/flock-counter" : "/ofd-counter", SPINDLE_O_RDWR | SPINDLE_O_CREAT,
                                   0644);
        int64_t zero = 0;
        spindle_fs_write(fd, &zero, 8);
        spindle_fs_close(fd);
    }
    pthread_t writers[WRITERS], readers[READERS], poller, resizer, lockers[2 * LOCKERS];
    for (int i = 0; i < READERS; i++)
        pthread_create(&readers[i], NULL, read_records, NULL);
    pthread_create(&poller, NULL, poll_reader_end, NULL);
    pthread_create(&resizer, NULL, resize_pipe, NULL);
    for (int i = 0; i < WRITERS; i++)
        pthread_create(&writers[i], NULL, write_records, (void *)(intptr_t)i);
    for (int i = 0; i < 2 * LOCKERS; i++)
        pthread_create(&lockers[i], NULL, count_under_locks, (void *)(intptr_t)(i % 2));
    for (int i = 0; i < WRITERS; i++)
        pthread_join(writers[i], NULL);
    for (int i = 0; i < READERS; i++)
        pthread_join(readers[i], NULL);
    pthread_join(poller, NULL);
    pthread_join(resizer, NULL);
    for (int i = 0; i < 2 * LOCKERS; i++)
        pthread_join(lockers[i], NULL);
    spindle_fs_close(pipe_fds[0]);

    int once = 0;
    for (int w = 0; w < WRITERS; w++)
        for (int r = 0; r < RECORDS; r++)
            once += atomic_load(&seen_count[w][r]) == 1;
    CHECK(atomic_load(&records_seen) == WRITERS * RECORDS);
    CHECK(once == WRITERS * RECORDS);
    for (int i = 0; i < 2; i++) {
        int fd = spindle_fs_openat(D, i ? "/flock-counter" : "/ofd-counter", SPINDLE_O_RDONLY, 0);
        int64_t value = -1;
        spindle_fs_read(fd, &value, 8);
        spindle_fs_close(fd);
        CHECK(value == LOCKERS * INCREMENTS);
    }
    CHECK(atomic_load(&failures) == 0);
    int probe_fd = spindle_fs_openat(D, "/", SPINDLE_O_RDONLY, 0);
    CHECK(probe_fd == SPINDLE_FS_FIRST_FD); /* no fd leaked */
    spindle_fs_close(probe_fd);
    printf("pipes: %d records through %d writers and %d readers; locks: %d increments each\n",
           atomic_load(&records_seen), WRITERS, READERS, LOCKERS * INCREMENTS);
    return report("stress ipc");
}
