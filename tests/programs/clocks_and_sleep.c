// CLOCK_MONOTONIC never goes backwards, and nanosleep, usleep and
// clock_nanosleep sleep at least as long as asked. Only booleans are printed.
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(void)
{
    int failures = 0;
    int64_t previous = now_ns(CLOCK_MONOTONIC);
    int monotonic = 1;
    for (int i = 0; i < 10000; i++) {
        int64_t current = now_ns(CLOCK_MONOTONIC);
        if (current < previous)
            monotonic = 0;
        previous = current;
    }
    printf("monotonic over 10000 reads: %d\n", monotonic);
    failures += !monotonic;

    struct timespec resolution = {0, 0};
    int res_rc = clock_getres(CLOCK_MONOTONIC, &resolution);
    int res_ok = res_rc == 0 && (resolution.tv_sec > 0 || resolution.tv_nsec > 0) && resolution.tv_sec == 0;
    printf("clock_getres monotonic positive and under 1 s: %d\n", res_ok);
    failures += !res_ok;

    // 2020-01-01 as a sanity floor for the wall clock.
    int realtime_sane = now_ns(CLOCK_REALTIME) / 1000000000 > 1577836800;
    printf("realtime after 2020: %d\n", realtime_sane);
    failures += !realtime_sane;

    // Waits with a CLOCK_REALTIME deadline (pthread_cond_timedwait, so libc++'s wait_for) end
    // early if the wall clock ticks in whole milliseconds: it must be as fine as the monotonic one.
    int64_t smallest_step = INT64_MAX;
    int64_t last = now_ns(CLOCK_REALTIME);
    for (int i = 0, steps = 0; i < 1000000 && steps < 20; i++) {
        int64_t current = now_ns(CLOCK_REALTIME);
        if (current != last) {
            if (current - last < smallest_step)
                smallest_step = current - last;
            steps++;
            last = current;
        }
    }
    printf("realtime ticks finer than 1 ms: %d\n", smallest_step < 1000000);
    failures += smallest_step >= 1000000;

    int64_t start = now_ns(CLOCK_MONOTONIC);
    struct timespec request = {0, 30 * 1000000L};
    int sleep_rc = nanosleep(&request, NULL);
    int64_t slept = now_ns(CLOCK_MONOTONIC) - start;
    printf("nanosleep 30 ms: rc 0: %d, slept at least 30 ms: %d, under 5 s: %d\n", sleep_rc == 0,
           slept >= 30000000, slept < 5000000000LL);
    failures += sleep_rc != 0 || slept < 30000000;

    start = now_ns(CLOCK_MONOTONIC);
    int usleep_rc = usleep(20000);
    slept = now_ns(CLOCK_MONOTONIC) - start;
    printf("usleep 20 ms: rc 0: %d, slept at least 20 ms: %d\n", usleep_rc == 0, slept >= 20000000);
    failures += usleep_rc != 0 || slept < 20000000;

    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_nsec += 25 * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    int abs_rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL);
    int64_t deadline_ns = (int64_t)deadline.tv_sec * 1000000000 + deadline.tv_nsec;
    int reached = now_ns(CLOCK_MONOTONIC) >= deadline_ns;
    printf("clock_nanosleep absolute 25 ms: rc 0: %d, deadline reached: %d\n", abs_rc == 0, reached);
    failures += abs_rc != 0 || !reached;

    int zero_rc = usleep(0);
    printf("usleep 0 returns 0: %d\n", zero_rc == 0);
    failures += zero_rc != 0;

    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
