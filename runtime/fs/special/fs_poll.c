/* poll(2) over the filesystem's fds. Only pipes can become ready later
 * (files, directories and devices are always ready), so a waiting poll sleeps
 * on one process-wide condition that every pipe change announces, with a
 * generation counter against lost wake-ups: a poll counts itself a waiter
 * before it looks at the fds, and a pipe that changed after releasing its
 * mutex bumps the generation whenever a waiter exists, so either the poll saw
 * the change or its wait sees the generation move. */
#include "fs_special.h"

#include <time.h>

static pthread_mutex_t poll_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t poll_changed;
static pthread_once_t poll_once = PTHREAD_ONCE_INIT;
static uint64_t generation;        /* under poll_lock */
static atomic_int waiting_polls;   /* polls that may sleep */

static void init_poll_condition(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* timeouts ignore wall-clock jumps */
    pthread_cond_init(&poll_changed, &attr);
    pthread_condattr_destroy(&attr);
}

void fs_poll_notify(void)
{
    if (atomic_load(&waiting_polls) == 0)
        return; /* the common case: nobody polls, no shared cache line is written */
    pthread_once(&poll_once, init_poll_condition);
    pthread_mutex_lock(&poll_lock);
    generation++;
    pthread_cond_broadcast(&poll_changed);
    pthread_mutex_unlock(&poll_lock);
}

static short ready_events(int fd)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return SPINDLE_POLLNVAL;
    short ready;
    if (file->inode->type == INODE_PIPE) {
        ready = pipe_poll_state(file);
    } else {
        ready = 0;
        if (open_file_readable(file))
            ready |= SPINDLE_POLLIN | SPINDLE_POLLRDNORM;
        if (open_file_writable(file))
            ready |= SPINDLE_POLLOUT | SPINDLE_POLLWRNORM;
    }
    open_file_unref(file);
    return ready;
}

/* Fills revents; returns how many fds are ready. */
static int scan(struct spindle_pollfd *fds, int nfds)
{
    int count = 0;
    for (int i = 0; i < nfds; i++) {
        fds[i].revents = 0;
        if (fds[i].fd < 0 || (fds[i].fd < SPINDLE_FS_FIRST_FD && !spindle_fs_fd_in_table(fds[i].fd)))
            continue; /* negative: skipped; the host's stdio: the caller's */
        /* POLLERR, POLLHUP and POLLNVAL are reported even when not asked for */
        const short always = SPINDLE_POLLERR | SPINDLE_POLLHUP | SPINDLE_POLLNVAL;
        fds[i].revents = (short)(ready_events(fds[i].fd) & (fds[i].events | always));
        if (fds[i].revents)
            count++;
    }
    return count;
}

int spindle_fs_poll(struct spindle_pollfd *fds, int nfds, int64_t timeout_ns)
{
    if (nfds < 0 || nfds > SPINDLE_FS_MAX_FDS)
        return -SPINDLE_EINVAL;
    if (timeout_ns == 0)
        return scan(fds, nfds);
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    if (timeout_ns > 0) {
        int64_t ns = deadline.tv_nsec + timeout_ns % 1000000000;
        deadline.tv_sec += (time_t)(timeout_ns / 1000000000 + ns / 1000000000);
        deadline.tv_nsec = (long)(ns % 1000000000);
    }
    pthread_once(&poll_once, init_poll_condition);
    atomic_fetch_add(&waiting_polls, 1);
    int count;
    for (;;) {
        pthread_mutex_lock(&poll_lock);
        uint64_t seen = generation;
        pthread_mutex_unlock(&poll_lock);
        count = scan(fds, nfds);
        if (count > 0)
            break;
        pthread_mutex_lock(&poll_lock);
        int rc = 0;
        while (generation == seen && rc == 0)
            rc = timeout_ns < 0 ? pthread_cond_wait(&poll_changed, &poll_lock)
                                : pthread_cond_timedwait(&poll_changed, &poll_lock, &deadline);
        pthread_mutex_unlock(&poll_lock);
        if (rc != 0) { /* timed out: one last look */
            count = scan(fds, nfds);
            break;
        }
    }
    atomic_fetch_sub(&waiting_polls, 1);
    return count;
}
