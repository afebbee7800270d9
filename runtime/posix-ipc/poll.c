/* poll, ppoll, select and pselect over the filesystem's fds (wasi-libc's
 * versions ask the host, which knows only stdio). The waiting happens in
 * spindle_fs_poll (runtime/fs/special/fs_poll.c): a sleep on a condition that pipes
 * signal, never a spin. The host's stdio fds are always ready, as the host's
 * own poll_oneoff reports them: stdin readable (a read may then block in the
 * host), stdout and stderr writable. Signal masks are accepted and ignored
 * (no signals reach the program). */
#define _GNU_SOURCE /* ppoll */
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/select.h>
#include <time.h>

#include "ipc_errno.h"

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

enum { STACK_FDS = 64 };

/* libc's event bits (wasi-libc numbers them its own way) <-> the core's */
static short to_core(short events)
{
    short out = 0;
    if (events & POLLRDNORM)
        out |= SPINDLE_POLLIN | SPINDLE_POLLRDNORM;
    if (events & POLLWRNORM)
        out |= SPINDLE_POLLOUT | SPINDLE_POLLWRNORM;
    return out;
}

static short from_core(short revents)
{
    short out = 0;
    if (revents & (SPINDLE_POLLIN | SPINDLE_POLLRDNORM))
        out |= POLLRDNORM;
    if (revents & (SPINDLE_POLLOUT | SPINDLE_POLLWRNORM))
        out |= POLLWRNORM;
    if (revents & SPINDLE_POLLERR)
        out |= POLLERR;
    if (revents & SPINDLE_POLLHUP)
        out |= POLLHUP;
    if (revents & SPINDLE_POLLNVAL)
        out |= POLLNVAL;
    return out;
}

/* stdio: stdin readable, stdout/stderr writable, always */
static short stdio_ready(int fd, short events)
{
    return (short)(events & (fd == 0 ? POLLRDNORM : POLLWRNORM));
}

/* an fd 0-2 that is still the host's (dup2 may have put a pipe or file of the table there) */
static bool host_stdio(int fd) { return fd >= 0 && fd < SPINDLE_FS_FIRST_FD && !spindle_fs_fd_in_table(fd); }

/* poll with a timeout in ns (< 0: none); 0 or -1 with errno */
static int poll_ns(struct pollfd *fds, nfds_t nfds, int64_t timeout_ns)
{
    if (nfds > (nfds_t)SPINDLE_FS_MAX_FDS) {
        errno = EINVAL;
        return -1;
    }
    if (ipc_ready() < 0)
        return -1;
    struct spindle_pollfd stack[STACK_FDS];
    struct spindle_pollfd *core = nfds <= STACK_FDS ? stack : malloc(nfds * sizeof *core);
    if (core == NULL) {
        errno = ENOMEM;
        return -1;
    }
    int stdio_count = 0;
    for (nfds_t i = 0; i < nfds; i++) {
        core[i].fd = fds[i].fd;
        core[i].events = to_core(fds[i].events);
        if (host_stdio(fds[i].fd) && stdio_ready(fds[i].fd, fds[i].events))
            stdio_count++;
    }
    int rc = spindle_fs_poll(core, (int)nfds, stdio_count > 0 ? 0 : timeout_ns);
    if (rc >= 0) {
        for (nfds_t i = 0; i < nfds; i++) {
            fds[i].revents =
                host_stdio(fds[i].fd) ? stdio_ready(fds[i].fd, fds[i].events) : from_core(core[i].revents);
        }
        rc += stdio_count;
    }
    if (core != stack)
        free(core);
    return ipc_result(rc);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
    return poll_ns(fds, nfds, timeout_ms < 0 ? -1 : (int64_t)timeout_ms * 1000000);
}

static int64_t timespec_ns(const struct timespec *ts)
{
    if (ts == NULL)
        return -1;
    if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000)
        return -2;
    if (ts->tv_sec > INT64_MAX / 1000000000 - 1)
        return -1; /* centuries: as good as forever */
    return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask)
{
    (void)sigmask;
    int64_t ns = timespec_ns(timeout);
    if (ns == -2) {
        errno = EINVAL;
        return -1;
    }
    return poll_ns(fds, nfds, ns);
}

/* select's three sets as poll entries, then the answers back into them */
static int select_ns(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, int64_t timeout_ns)
{
    if (nfds < 0 || nfds > FD_SETSIZE) {
        errno = EINVAL;
        return -1;
    }
    struct pollfd stack[STACK_FDS];
    struct pollfd *fds = stack;
    int count = 0;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        count = 0;
        for (int fd = 0; fd < nfds; fd++) {
            short events =
                (rd && FD_ISSET(fd, rd) ? POLLRDNORM : 0) | (wr && FD_ISSET(fd, wr) ? POLLWRNORM : 0);
            bool listed = events || (ex && FD_ISSET(fd, ex));
            if (!listed)
                continue;
            if (pass == 1) {
                fds[count].fd = fd;
                fds[count].events = events;
            }
            count++;
        }
        if (pass == 0 && count > STACK_FDS && (fds = malloc((size_t)count * sizeof *fds)) == NULL) {
            errno = ENOMEM;
            return -1;
        }
    }
    int rc = poll_ns(fds, (nfds_t)count, timeout_ns);
    if (rc >= 0) {
        for (int i = 0; i < count && rc >= 0; i++)
            if (fds[i].revents & POLLNVAL) {
                errno = EBADF; /* select fails as a whole on a closed fd, sets untouched */
                rc = -1;
            }
    }
    if (rc >= 0) {
        rc = 0;
        for (int i = 0; i < count; i++) {
            int fd = fds[i].fd;
            /* as Linux: an error or hang-up makes a watched fd readable, an error writable */
            bool readable = fds[i].revents & (POLLRDNORM | POLLHUP | POLLERR);
            bool writable = fds[i].revents & (POLLWRNORM | POLLERR);
            if (rd && FD_ISSET(fd, rd) && !readable)
                FD_CLR(fd, rd);
            if (wr && FD_ISSET(fd, wr) && !writable)
                FD_CLR(fd, wr);
            if (ex && FD_ISSET(fd, ex))
                FD_CLR(fd, ex); /* no out-of-band data anywhere */
            rc += (rd && FD_ISSET(fd, rd)) + (wr && FD_ISSET(fd, wr));
        }
    }
    if (fds != stack)
        free(fds);
    return rc;
}

int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout)
{
    int64_t ns = -1;
    if (timeout != NULL) {
        if (timeout->tv_sec < 0 || timeout->tv_usec < 0 || timeout->tv_usec >= 1000000) {
            errno = EINVAL;
            return -1;
        }
        ns = timeout->tv_sec > INT64_MAX / 1000000000 - 1
                 ? -1
                 : (int64_t)timeout->tv_sec * 1000000000 + (int64_t)timeout->tv_usec * 1000;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int rc = select_ns(nfds, rd, wr, ex, ns);
    if (timeout != NULL && ns >= 0) { /* Linux leaves the time not slept in *timeout */
        clock_gettime(CLOCK_MONOTONIC, &end);
        int64_t slept = (int64_t)(end.tv_sec - start.tv_sec) * 1000000000 + (end.tv_nsec - start.tv_nsec);
        int64_t left = rc == 0 || slept >= ns ? 0 : ns - slept;
        timeout->tv_sec = (time_t)(left / 1000000000);
        timeout->tv_usec = (suseconds_t)(left % 1000000000 / 1000);
    }
    return rc;
}

int pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *timeout,
            const sigset_t *sigmask)
{
    (void)sigmask;
    int64_t ns = timespec_ns(timeout);
    if (ns == -2) {
        errno = EINVAL;
        return -1;
    }
    return select_ns(nfds, rd, wr, ex, ns);
}
