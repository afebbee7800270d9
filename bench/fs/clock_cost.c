/* What a clock read costs, and what a file write costs around the timestamp it takes: ns per
 * clock_gettime(CLOCK_REALTIME) and (CLOCK_MONOTONIC), 1,000,000 of each, and per 16-byte
 * pwrite at offset 0, 200,000 of them (each stamps mtime and ctime; docs/FILESYSTEM.md). */
#include "bench_common.h"

#define CLOCK_READS 1000000
#define WRITES 200000

static double ns_per_clock_read(clockid_t clock)
{
    struct timespec ts;
    long long sum = 0;
    double start = now_seconds();
    for (int i = 0; i < CLOCK_READS; i++) {
        clock_gettime(clock, &ts);
        sum += ts.tv_nsec;
    }
    double seconds = now_seconds() - start;
    return sum == -1 ? 0 : seconds * 1e9 / CLOCK_READS; /* sum keeps the reads */
}

static double ns_per_write(void)
{
    char bytes[16] = "sixteen bytes..";
    int fd = open("stamped", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("open stamped");
    double start = now_seconds();
    for (int i = 0; i < WRITES; i++)
        if (pwrite(fd, bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
            die("pwrite stamped");
    double seconds = now_seconds() - start;
    close(fd);
    unlink("stamped");
    return seconds * 1e9 / WRITES;
}

int main(void)
{
    enter_bench_dir("clock-cost");
    ns_per_write(); /* untimed: the first calls of each function are V8 compiling it */
    double realtime = ns_per_clock_read(CLOCK_REALTIME);
    double monotonic = ns_per_clock_read(CLOCK_MONOTONIC);
    double write = ns_per_write();
    printf(
        "RESULT {\"bench\":\"clock_cost\",\"realtime_ns\":%.1f,\"monotonic_ns\":%.1f,\"pwrite16_ns\":%.1f}\n",
        realtime, monotonic, write);
    return 0;
}
