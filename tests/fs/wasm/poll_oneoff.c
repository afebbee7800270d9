/* WASI poll_oneoff on Spindle's fds, as Rust's mio calls it: a regular file
 * is ready at once, an empty pipe lets the clock subscription fire, a pipe
 * with data (or whose writer is gone) is ready for reading, a closed fd gives
 * EBADF in its event, and a call with only a clock still sleeps (host). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wasi/api.h>

static int failures;
#define EXPECT(cond)                                                                                         \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                                                   \
            failures++;                                                                                      \
        }                                                                                                    \
    } while (0)

static __wasi_subscription_t fd_sub(uint64_t userdata, __wasi_eventtype_t type, int fd)
{
    __wasi_subscription_t s;
    memset(&s, 0, sizeof s);
    s.userdata = userdata;
    s.u.tag = type;
    s.u.u.fd_read.file_descriptor = (__wasi_fd_t)fd; /* fd_write has the same layout */
    return s;
}

static __wasi_subscription_t clock_sub(uint64_t userdata, uint64_t ns)
{
    __wasi_subscription_t s;
    memset(&s, 0, sizeof s);
    s.userdata = userdata;
    s.u.tag = __WASI_EVENTTYPE_CLOCK;
    s.u.u.clock.id = __WASI_CLOCKID_MONOTONIC;
    s.u.u.clock.timeout = ns;
    return s;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void)
{
    int file = open("/tmp/poll-oneoff", O_RDWR | O_CREAT, 0644);
    int p[2];
    pipe(p);
    __wasi_event_t ev[4];
    __wasi_size_t n = 0;

    __wasi_subscription_t subs[3] = {fd_sub(1, __WASI_EVENTTYPE_FD_READ, file),
                                     fd_sub(2, __WASI_EVENTTYPE_FD_READ, p[0]),
                                     clock_sub(3, 5 * 1000000000ull)};
    EXPECT(__wasi_poll_oneoff(subs, ev, 3, &n) == 0);
    EXPECT(n == 1 && ev[0].userdata == 1 && ev[0].error == 0 && ev[0].type == __WASI_EVENTTYPE_FD_READ);

    subs[0] = fd_sub(2, __WASI_EVENTTYPE_FD_READ, p[0]);
    subs[1] = clock_sub(3, 30 * 1000000ull);
    double t0 = now_ms();
    EXPECT(__wasi_poll_oneoff(subs, ev, 2, &n) == 0);
    EXPECT(n == 1 && ev[0].userdata == 3 && ev[0].type == __WASI_EVENTTYPE_CLOCK);
    EXPECT(now_ms() - t0 >= 29);

    write(p[1], "x", 1);
    subs[1] = fd_sub(4, __WASI_EVENTTYPE_FD_WRITE, p[1]);
    EXPECT(__wasi_poll_oneoff(subs, ev, 2, &n) == 0);
    EXPECT(n == 2 && ev[0].userdata == 2 && ev[1].userdata == 4 && ev[1].type == __WASI_EVENTTYPE_FD_WRITE);

    close(p[1]);
    char c;
    read(p[0], &c, 1);
    EXPECT(__wasi_poll_oneoff(subs, ev, 1, &n) == 0);
    EXPECT(n == 1 && (ev[0].fd_readwrite.flags & __WASI_EVENTRWFLAGS_FD_READWRITE_HANGUP));

    subs[0] = fd_sub(5, __WASI_EVENTTYPE_FD_READ, p[1]); /* closed */
    EXPECT(__wasi_poll_oneoff(subs, ev, 1, &n) == 0);
    EXPECT(n == 1 && ev[0].error == __WASI_ERRNO_BADF);

    subs[0] = clock_sub(6, 20 * 1000000ull);
    t0 = now_ms();
    EXPECT(__wasi_poll_oneoff(subs, ev, 1, &n) == 0 && n == 1 && ev[0].userdata == 6);
    EXPECT(now_ms() - t0 >= 19);
    close(p[0]);
    close(file);
    printf("poll_oneoff: %d failed\n", failures);
    return failures != 0;
}
