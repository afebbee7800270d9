/* A file written after the program saw time pass is stamped after it, as on Linux, also when the
 * host's clock in memory fell behind (tests/stamp-clock.test.js freezes it): a write after a 20 ms
 * sleep moves mtime by about 20 ms, and a write after clock_gettime is stamped no more than a
 * few ms before that reading. Prints "ok", or what was wrong and exits 1. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000LL
#define TICK_NS (5 * MS) /* Linux: 1-10 ms; Spindle: STAMP_LAG_MAX_NS */

static int64_t ns_of(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

static int64_t written_mtime(int fd)
{
    struct stat st;
    if (write(fd, "x", 1) != 1 || fstat(fd, &st) != 0) {
        perror("write or fstat");
        _exit(1);
    }
    return ns_of(st.st_mtim);
}

int main(void)
{
    int fd = open("/tmp/sleep-then-stamp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    int failed = 0;
    for (int round = 0; round < 3; round++) {
        int64_t before = written_mtime(fd);
        struct timespec pause = {0, 20 * MS};
        nanosleep(&pause, NULL);
        int64_t after_sleep = written_mtime(fd);
        if (after_sleep - before < 20 * MS - TICK_NS) {
            printf("round %d: a write 20 ms after another moved mtime by %lld us\n", round,
                   (long long)((after_sleep - before) / 1000));
            failed = 1;
        }
        struct timespec seen;
        clock_gettime(CLOCK_REALTIME, &seen);
        int64_t after_clock = written_mtime(fd);
        if (ns_of(seen) - after_clock > TICK_NS) {
            printf("round %d: a write after clock_gettime stamped %lld us before its reading\n", round,
                   (long long)((ns_of(seen) - after_clock) / 1000));
            failed = 1;
        }
    }
    close(fd);
    unlink("/tmp/sleep-then-stamp");
    puts(failed ? "failed" : "ok");
    return failed;
}
