/* Threads reading one 32 MiB file at random 4 KiB offsets: 400,000 preads split over argv[1]
 * threads (1..256), through one shared descriptor ("shared", the default) or one per thread
 * ("own", argv[2]). A read of a file nobody writes should cost the same at any thread count,
 * so this is the speed-up of readers sharing a file. Timed from the moment all threads run.
 * Reports reads per second. */
#include <stdbool.h>
#include <stdint.h>

#include "bench_common.h"

#define FILE_BYTES (32 << 20)
#define BLOCK 4096
#define TOTAL_READS 400000
#define MAX_THREADS 256

static int threads, shared_fd = -1;
static long long failures;
static struct thread_totals checks[MAX_THREADS]; /* count: a sum of the bytes read, so they are used */

static void *reader(void *arg)
{
    int t = (int)(intptr_t)arg;
    unsigned char buf[BLOCK];
    int fd = shared_fd >= 0 ? shared_fd : open("shared", O_RDONLY);
    if (fd < 0)
        die("open shared");
    uint64_t state = 0x9e3779b97f4a7c15u * (uint64_t)(t + 1);
    long long sum = 0, failed = 0;
    for (int i = t; i < TOTAL_READS; i += threads) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        int64_t block = (int64_t)(state % (FILE_BYTES / BLOCK));
        if (pread(fd, buf, BLOCK, block * BLOCK) != BLOCK || buf[0] != (unsigned char)block)
            failed++;
        sum += buf[BLOCK - 1];
    }
    checks[t].count = sum;
    __atomic_fetch_add(&failures, failed, __ATOMIC_RELAXED);
    if (fd != shared_fd)
        close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    threads = argc > 1 ? atoi(argv[1]) : 2;
    bool own = argc > 2 && strcmp(argv[2], "own") == 0;
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "usage: shared_pread [threads 1..%d] [shared|own]\n", MAX_THREADS);
        return 2;
    }
    enter_bench_dir("shared-pread");
    int fd = write_numbered_blocks("shared", FILE_BYTES, BLOCK);
    if (!own)
        shared_fd = fd;
    /* Some reads first, untimed: in wasm, the first calls of each function are V8 compiling it. */
    unsigned char warm[BLOCK];
    for (int i = 0; i < 1000; i++)
        if (pread(fd, warm, BLOCK, (int64_t)i * BLOCK) != BLOCK)
            die("warm-up pread");
    double seconds = run_timed_threads(threads, reader);
    close(fd);
    unlink("shared");
    printf("RESULT {\"bench\":\"shared_pread\",\"threads\":%d,\"fds\":\"%s\",\"seconds\":%.6f,\"reads\":%d,"
           "\"reads_per_s\":%.0f,\"failures\":%lld,\"memory_grows\":%lld}\n",
           threads, own ? "own" : "shared", seconds, TOTAL_READS, TOTAL_READS / seconds, failures,
           memory_grows());
    return failures != 0;
}
