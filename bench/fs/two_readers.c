/* (d) 2 threads reading one 16 MiB file at the same time, each through its own descriptor
 * with 16 KiB read() calls, 4 passes each. Reports the combined read throughput. */
#include <stdint.h>

#include "bench_common.h"

#define FILE_BYTES (16 << 20)
#define BLOCK (16 << 10)
#define PASSES 4
#define THREADS 2

static unsigned long long sums[THREADS];
static long long read_bytes[THREADS];

static void *reader(void *arg)
{
    int t = (int)(intptr_t)arg;
    static unsigned char bufs[THREADS][BLOCK];
    unsigned char *buf = bufs[t];
    for (int pass = 0; pass < PASSES; pass++) {
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

int main(void)
{
    enter_bench_dir("two-readers");
    static unsigned char block[BLOCK];
    int fd = open("shared", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; i < FILE_BYTES / BLOCK; i++) {
        memset(block, i & 0xff, sizeof block);
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
            die("write shared");
    }
    close(fd);
    pthread_t th[THREADS];
    double start = now_seconds();
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, reader, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    double seconds = now_seconds() - start;
    long long total = read_bytes[0] + read_bytes[1];
    int ok = total == (long long)THREADS * PASSES * FILE_BYTES && sums[0] == sums[1];
    unlink("shared");
    printf("RESULT {\"bench\":\"two_readers\",\"where\":\"2 threads\",\"seconds\":%.6f,\"bytes\":%lld,"
           "\"mb_per_s\":%.2f,\"ok\":%d}\n",
           seconds, total, (double)total / seconds / 1e6, ok);
    return !ok;
}
