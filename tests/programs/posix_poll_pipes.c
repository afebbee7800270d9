/* poll, ppoll, select and pselect on pipes and files, compared with Linux:
 * timeouts, readiness after a write from another thread (the poll sleeps
 * until then), POLLHUP/POLLERR when an end goes away, POLLNVAL, EBADF. */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* names of the revents bits; three calls may share one printf */
static const char *events(short r)
{
    static char texts[3][64];
    static int next;
    char *text = texts[next++ % 3];
    snprintf(text, sizeof texts[0], "%s%s%s%s%s", r & POLLIN ? "IN " : "", r & POLLOUT ? "OUT " : "",
             r & POLLERR ? "ERR " : "", r & POLLHUP ? "HUP " : "", r & POLLNVAL ? "NVAL " : "");
    return r ? text : "none ";
}

static int late_fd;
static void *write_later(void *arg)
{
    (void)arg;
    struct timespec pause = {0, 30 * 1000000};
    nanosleep(&pause, NULL);
    write(late_fd, "!", 1);
    return NULL;
}

int main(void)
{
    int p[2];
    pipe(p);
    struct pollfd both[2] = {{p[0], POLLIN, 0}, {p[1], POLLOUT, 0}};
    int n = poll(both, 2, 0);
    printf("new pipe: %d ready; read end %swrite end %s\n", n, events(both[0].revents),
           events(both[1].revents));

    double t0 = now_ms();
    struct pollfd rd = {p[0], POLLIN, 0};
    n = poll(&rd, 1, 60);
    printf("empty read end, 60 ms timeout: %d after >= 60 ms: %s\n", n, now_ms() - t0 >= 59 ? "yes" : "no");

    late_fd = p[1];
    pthread_t t;
    pthread_create(&t, NULL, write_later, NULL);
    t0 = now_ms();
    n = poll(&rd, 1, -1);
    pthread_join(t, NULL);
    printf("no timeout, another thread writes: %d %s(waited: %s)\n", n, events(rd.revents),
           now_ms() - t0 >= 20 ? "yes" : "no");

    char buf[1024];
    memset(buf, 'x', sizeof buf);
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    while (write(p[1], buf, sizeof buf) > 0)
        ;
    struct pollfd wr = {p[1], POLLOUT, 0};
    printf("full pipe, write end: %d %s\n", poll(&wr, 1, 10), events(wr.revents));

    close(p[0]);
    n = poll(&wr, 1, -1);
    printf("read end closed, write end: %d %s\n", n, events(wr.revents));
    close(p[1]);

    pipe(p);
    write(p[1], "ab", 2);
    close(p[1]);
    rd.fd = p[0];
    printf("writer gone, data left: %d %s\n", poll(&rd, 1, -1), events(rd.revents));
    read(p[0], buf, 2);
    printf("writer gone, drained: %d %s\n", poll(&rd, 1, -1), events(rd.revents));
    close(p[0]);

    int file = open("/tmp/spindle-posix-poll.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644);
    struct pollfd mixed[3] = {{file, POLLIN | POLLOUT, 0}, {-1, POLLIN, 7}, {999, POLLIN, 0}};
    n = poll(mixed, 3, -1);
    printf("file, fd -1, fd 999: %d; %s| %s| %s\n", n, events(mixed[0].revents), events(mixed[1].revents),
           events(mixed[2].revents));

    struct timespec ts = {0, 20 * 1000000};
    pipe(p);
    rd.fd = p[0];
    printf("ppoll, 20 ms on an empty pipe: %d\n", ppoll(&rd, 1, &ts, NULL));

    fd_set r, w;
    FD_ZERO(&r);
    FD_ZERO(&w);
    FD_SET(p[0], &r);
    FD_SET(p[1], &w);
    FD_SET(file, &r);
    int top = (p[0] > p[1] ? p[0] : p[1]) > file ? (p[0] > p[1] ? p[0] : p[1]) : file;
    n = select(top + 1, &r, &w, NULL, NULL);
    printf("select: %d; pipe readable %d, pipe writable %d, file readable %d\n", n, FD_ISSET(p[0], &r),
           FD_ISSET(p[1], &w), FD_ISSET(file, &r));
    FD_ZERO(&r);
    FD_SET(p[0], &r);
    struct timeval tv = {0, 20000};
    printf("select, 20 ms on an empty pipe: %d, still set: %d\n", select(p[0] + 1, &r, NULL, NULL, &tv),
           FD_ISSET(p[0], &r));
    write(p[1], "y", 1);
    FD_SET(p[0], &r);
    printf("pselect after a write: %d\n", pselect(p[0] + 1, &r, NULL, NULL, &ts, NULL));
    close(p[1]);
    FD_SET(p[0], &r);
    FD_SET(p[1], &r);
    errno = 0;
    printf("select on a closed fd: %d %s\n", select((p[0] > p[1] ? p[0] : p[1]) + 1, &r, NULL, NULL, &tv),
           errno == EBADF ? "EBADF" : strerror(errno));
    close(p[0]);
    close(file);
    unlink("/tmp/spindle-posix-poll.tmp");
    return 0;
}
