/* Readers against writers on one file, for the lock-free read path (runtime/fs/core/reader_slots.c),
 * run under ThreadSanitizer, AddressSanitizer+UBSan and as wasm:
 *  - every pread of a 4 KiB chunk sees one whole version of it: writers fill a chunk with one
 *    64-bit value, readers check all 512 words agree (zeros count: a truncated chunk);
 *  - fstat during writes reports a size that is a whole number of chunks;
 *  - an fd closed and reopened under the readers' and writers' feet gives them EBADF or a valid
 *    file, never freed memory (the ASan run catches a use after free). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../test_util.h"

#define D SPINDLE_AT_FDCWD
#define CHUNK 4096
#define WORDS (CHUNK / 8)
#define CHUNKS 32
#define WRITERS 2
#define READERS 4
#define MIN_WRITES 3000
#define MIN_READS 30000

static int shared_fd;
static atomic_int churned_fd = -1; /* closed and reopened all the time (fd_churner) */
static atomic_int writers_left = WRITERS;
static atomic_long torn, bad_sizes, reads;
static atomic_int started;

/* Every thread starts its loop only when all have started, so they overlap. */
static void start_together(void)
{
    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < WRITERS + READERS + 1)
        sched_yield();
}

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static void *writer(void *arg)
{
    uint64_t state = 0x9e3779b97f4a7c15u + (uintptr_t)arg, buf[WORDS];
    start_together();
    for (int i = 0; i < MIN_WRITES || atomic_load_explicit(&reads, memory_order_relaxed) < MIN_READS; i++) {
        int chunk = (int)(next_random(&state) % CHUNKS);
        uint64_t version = ((uint64_t)(uintptr_t)arg << 48) | (uint64_t)(i + 1);
        for (int w = 0; w < WORDS; w++)
            buf[w] = version;
        /* every fourth write through the fd the churner closes and reopens: EBADF, or written */
        int fd = i % 4 == 0 ? atomic_load(&churned_fd) : shared_fd;
        int64_t put = spindle_fs_pwrite(fd, buf, CHUNK, (int64_t)chunk * CHUNK);
        if (put == -SPINDLE_EBADF && fd != shared_fd)
            put = spindle_fs_pwrite(shared_fd, buf, CHUNK, (int64_t)chunk * CHUNK);
        if (put != CHUNK)
            atomic_fetch_add(&torn, 1);
        if (i % 500 == 499) /* shrink and grow back: chunks freed while readers read */
            spindle_fs_ftruncate(shared_fd, (int64_t)(CHUNKS / 2) * CHUNK);
    }
    atomic_fetch_sub(&writers_left, 1);
    return NULL;
}

static void check_chunk(const uint64_t *buf, int64_t got)
{
    if (got == 0)
        return; /* past a truncated end */
    if (got != CHUNK) {
        atomic_fetch_add(&torn, 1);
        return;
    }
    for (int w = 1; w < WORDS; w++)
        if (buf[w] != buf[0]) {
            atomic_fetch_add(&torn, 1);
            return;
        }
}

static void *reader(void *arg)
{
    uint64_t state = 0x2545f4914f6cdd1du + (uintptr_t)arg, buf[WORDS];
    int own_fd = spindle_fs_openat(D, "/snap/file", SPINDLE_O_RDONLY, 0);
    start_together();
    while (atomic_load(&writers_left) > 0) {
        int chunk = (int)(next_random(&state) % CHUNKS);
        uint64_t pick = next_random(&state) % 3;
        int fd = pick == 0 ? own_fd : pick == 1 ? shared_fd : atomic_load(&churned_fd);
        int64_t got = spindle_fs_pread(fd, buf, CHUNK, (int64_t)chunk * CHUNK);
        if (pick != 2 || got != -SPINDLE_EBADF)
            check_chunk(buf, got);
        struct spindle_stat st;
        if (spindle_fs_fstat(fd, &st) == 0 && st.size % CHUNK != 0)
            atomic_fetch_add(&bad_sizes, 1);
        /* Past the reads needed, each read gives way to the writers, which are what the run
         * waits for: on two cores the readers otherwise took most of the CPU (7.6M reads). */
        if (atomic_fetch_add_explicit(&reads, 1, memory_order_relaxed) >= MIN_READS)
            sched_yield();
    }
    spindle_fs_close(own_fd);
    return NULL;
}

/* Closes and reopens one fd number that readers keep using. */
static void *fd_churner(void *arg)
{
    uint64_t buf[WORDS];
    int fd = spindle_fs_openat(D, "/snap/file", SPINDLE_O_RDWR, 0);
    atomic_store(&churned_fd, fd);
    start_together();
    while (atomic_load(&writers_left) > 0) {
        check_chunk(buf, spindle_fs_pread(fd, buf, CHUNK, 0));
        spindle_fs_close(fd); /* the lowest free fd: the same number comes back */
        fd = spindle_fs_openat(D, "/snap/file", SPINDLE_O_RDWR, 0);
        atomic_store(&churned_fd, fd);
    }
    return arg;
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    CHECK(spindle_fs_mkdirat(D, "/snap", 0755) == 0);
    shared_fd = spindle_fs_openat(D, "/snap/file", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644);
    CHECK(shared_fd >= 0);
    static uint64_t zeros[WORDS];
    for (int c = 0; c < CHUNKS; c++)
        CHECK(spindle_fs_pwrite(shared_fd, zeros, CHUNK, (int64_t)c * CHUNK) == CHUNK);
    pthread_t threads[WRITERS + READERS + 1];
    int n = 0;
    for (int i = 0; i < WRITERS; i++)
        pthread_create(&threads[n++], NULL, writer, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < READERS; i++)
        pthread_create(&threads[n++], NULL, reader, (void *)(uintptr_t)(i + 1));
    pthread_create(&threads[n++], NULL, fd_churner, NULL);
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    CHECK(atomic_load(&torn) == 0);
    CHECK(atomic_load(&bad_sizes) == 0);
    CHECK(atomic_load(&reads) > 0);
    printf("snapshot reads: %ld reads, %ld torn, %ld bad sizes\n", atomic_load(&reads), atomic_load(&torn),
           atomic_load(&bad_sizes));
    printf("fs snapshot: %d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed != 0;
}
