/* (d) Threads reading one 16 MiB file at the same time, each through its own descriptor with
 * 16 KiB read() calls: 64 passes over the file split over argv[1] threads (default 2), so 1
 * thread against 2 is the speed-up of "2 readers of one file". Reports the read throughput.
 * 64 passes take ~60 ms here; 8 (~10 ms) were too short to time. */
#include <stdint.h>

#include "bench_common.h"

#define FILE_BYTES (16 << 20)
#define BLOCK (16 << 10)
#define TOTAL_PASSES 64
#define MAX_THREADS 8

static int threads;
static unsigned long long sums[MAX_THREADS];
static long long read_bytes[MAX_THREADS];

static void *reader(void *arg)
{
    int t = (int)(intptr_t)arg;
    static unsigned char bufs[MAX_THREADS][BLOCK];
    unsigned char *buf = bufs[t];
    for (int pass = t; pass < TOTAL_PASSES; pass += threads) {
        int fd = open("shared", O_RDONLY);
        if (fd < 0)
            die("open shared");
        ssize_t n;
        while ((n = read(fd, buf, BLOCK)) > 0) {
            sums[t] += buf[0] + buf[n - 1];
            read_bytes[t] += n;
        }
        close(fd);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    threads = argc > 1 ? atoi(argv[1]) : 2;
    if (threads < 1 || threads > MAX_THREADS || TOTAL_PASSES % threads)
        die("usage: two_readers [threads 1, 2, 4 or 8]");
    enter_bench_dir("two-readers");
    close(write_numbered_blocks("shared", FILE_BYTES, BLOCK));
    pthread_t th[MAX_THREADS];
    double start = now_seconds();
    for (int t = 0; t < threads; t++)
        pthread_create(&th[t], NULL, reader, (void *)(intptr_t)t);
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    double seconds = now_seconds() - start;
    long long total = 0;
    int ok = 1;
    for (int t = 0; t < threads; t++) {
        total += read_bytes[t];
        ok &= sums[t] == sums[0]; // every thread read the same passes' bytes
    }
    ok &= total == (long long)TOTAL_PASSES * FILE_BYTES;
    unlink("shared");
    printf("RESULT {\"bench\":\"two_readers\",\"threads\":%d,\"seconds\":%.6f,\"bytes\":%lld,"
           "\"mb_per_s\":%.2f,\"ok\":%d,\"memory_grows\":%lld}\n",
           threads, seconds, total, (double)total / seconds / 1e6, ok, memory_grows());
    return !ok;
}
