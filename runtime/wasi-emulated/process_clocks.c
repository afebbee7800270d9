// libwasi-emulated-process-clocks: clock(), times() and getrusage() for code written for POSIX
// (-D_WASI_EMULATED_PROCESS_CLOCKS), all read from WASI's process CPU-time clock, counted from
// its reading when the program started (as a process's CPU time starts near zero). The host
// decides what that clock measures (Spindle's host: elapsed time, so a program waiting counts
// too). wasi-libc's <time.h> does not name that clock, so it is read through the WASI call.
#include <errno.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>
#include <wasi/api.h>

static long long clock_ns(__wasi_clockid_t id)
{
    __wasi_timestamp_t ns;
    __wasi_errno_t error = __wasi_clock_time_get(id, 1, &ns);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return (long long)ns;
}

static long long cpu_at_start;

// A constructor of this object runs before main whenever the program uses one of its functions.
__attribute__((constructor)) static void note_start(void)
{
    cpu_at_start = clock_ns(__WASI_CLOCKID_PROCESS_CPUTIME_ID);
}

static long long cpu_ns(void)
{
    long long now = clock_ns(__WASI_CLOCKID_PROCESS_CPUTIME_ID);
    return now < 0 || cpu_at_start < 0 ? -1 : now - cpu_at_start;
}

clock_t clock(void)
{
    long long ns = cpu_ns();
    return ns < 0 ? (clock_t)-1 : (clock_t)(ns / (1000000000 / CLOCKS_PER_SEC));
}

// times() counts in sysconf(_SC_CLK_TCK) ticks; its result is elapsed real time.
clock_t times(struct tms *buffer)
{
    long long ticks_per_s = sysconf(_SC_CLK_TCK);
    long long cpu = cpu_ns(), now = clock_ns(__WASI_CLOCKID_MONOTONIC);
    if (cpu < 0 || now < 0)
        return (clock_t)-1;
    buffer->tms_utime = (clock_t)(cpu * ticks_per_s / 1000000000);
    buffer->tms_stime = 0; // no separate system time: all of it counts as user time
    buffer->tms_cutime = buffer->tms_cstime = 0; // no child processes
    return (clock_t)(now * ticks_per_s / 1000000000);
}

int getrusage(int who, struct rusage *usage)
{
    if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN) {
        errno = EINVAL;
        return -1;
    }
    *usage = (struct rusage){0};
    if (who == RUSAGE_CHILDREN)
        return 0; // no child processes
    long long cpu = cpu_ns();
    if (cpu < 0)
        return -1;
    usage->ru_utime.tv_sec = cpu / 1000000000;
    usage->ru_utime.tv_usec = cpu % 1000000000 / 1000;
    return 0;
}
