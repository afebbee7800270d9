// libwasi-emulated-process-clocks: clock(), times() and getrusage() link, start small, never go
// back, and advance while the program computes.
#include <stdio.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void spin(void)
{
    clock_t start = clock();
    while (clock() - start < CLOCKS_PER_SEC / 20) // 50 ms of computing
        for (int i = 0; i < 10000; i++)
            sink += (unsigned long)i * i;
}

static long long rusage_us(void)
{
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    return (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec;
}

int main(void)
{
    clock_t c0 = clock();
    struct tms t0;
    clock_t real0 = times(&t0);
    long long u0 = rusage_us();
    spin();
    clock_t c1 = clock();
    struct tms t1;
    clock_t real1 = times(&t1);
    long long u1 = rusage_us();

    printf("clock advanced: %d\n", c0 != (clock_t)-1 && c1 > c0);
    printf("clock under 60 s at start: %d\n", c0 < 60 * CLOCKS_PER_SEC);
    printf("times: user time advanced %d, real time advanced %d, no children %d\n",
           t1.tms_utime >= t0.tms_utime && t1.tms_utime > 0, real1 > real0,
           t1.tms_cutime == 0 && t1.tms_cstime == 0);
    printf("getrusage advanced: %d\n", u0 >= 0 && u1 > u0);
    struct rusage children;
    printf("getrusage(RUSAGE_CHILDREN) = %d\n", getrusage(RUSAGE_CHILDREN, &children));
    printf("getrusage(7) = %d\n", getrusage(7, &children));
    return 0;
}
