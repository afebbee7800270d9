/* Process groups and sessions. The program is one process, leader of its own process group and
 * session (ids equal to its pid), like a daemon after setsid(), and has no controlling
 * terminal. Each call answers as Linux does for such a process. */
#include <errno.h>
#include <unistd.h>

/* the calling process (0) or its own pid; anything else names no process Spindle can see */
static int is_self(pid_t pid) { return pid == 0 || pid == getpid(); }

pid_t getpgrp(void) { return getpid(); }

pid_t getpgid(pid_t pid)
{
    if (!is_self(pid)) {
        errno = ESRCH;
        return -1;
    }
    return getpgrp();
}

pid_t getsid(pid_t pid)
{
    if (!is_self(pid)) {
        errno = ESRCH;
        return -1;
    }
    return getpid();
}

/* A session leader cannot move to another group, nor start a new session. */
int setpgid(pid_t pid, pid_t pgid)
{
    if (pgid < 0) {
        errno = EINVAL;
        return -1;
    }
    errno = is_self(pid) ? EPERM : ESRCH;
    return -1;
}

pid_t setpgrp(void) { return setpgid(0, 0); }

pid_t setsid(void)
{
    errno = EPERM;
    return -1;
}

/* No controlling terminal: a terminal fd is not this process's one (ENOTTY), as for a daemon. */
static int no_terminal(int fd)
{
    if (!isatty(fd) && errno == EBADF)
        return -1;
    errno = ENOTTY;
    return -1;
}

pid_t tcgetpgrp(int fd) { return no_terminal(fd); }

int tcsetpgrp(int fd, pid_t pgrp)
{
    (void)pgrp;
    return no_terminal(fd);
}
