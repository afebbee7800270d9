/* How old a write's timestamp is: 300 writes, each after a stretch of 0-3 ms of computation
 * (during which nothing stamps), then the median and the largest gap between the clock read just
 * before the write and the mtime it got, in microseconds, and how many stamps were ahead of the
 * clock read just after (tests/stamp-clock.test.js). Linux's tick clock gives 1-10 ms. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WRITES 300

static long long realtime_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static long long stale[WRITES];
    int ahead = 0;
    unsigned seed = 12345;
    int fd = open("/tmp/stamp-staleness", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    for (int i = 0; i < WRITES; i++) {
        seed = seed * 1103515245 + 12345;
        long long until = realtime_ns() + (seed >> 8) % 3000000;
        while (realtime_ns() < until) {
        }
        long long before = realtime_ns();
        if (write(fd, "x", 1) != 1) {
            perror("write");
            return 1;
        }
        struct stat st;
        fstat(fd, &st);
        long long after = realtime_ns();
        long long mtime = (long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        ahead += mtime > after;
        stale[i] = before - mtime;
    }
    close(fd);
    unlink("/tmp/stamp-staleness");
    qsort(stale, WRITES, sizeof stale[0], compare);
    printf("median_us %lld max_us %lld ahead %d\n", stale[WRITES / 2] / 1000, stale[WRITES - 1] / 1000,
           ahead);
    return 0;
}
