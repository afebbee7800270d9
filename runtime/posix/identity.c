/* Who the program is: one process run as root (uid and gid 0), with no login session. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
pid_t getppid(void) { return 0; } /* nothing started it that it can see */

/* Like a daemon's: no controlling terminal, so no login name (ENXIO, as glibc without utmp). */
char *getlogin(void)
{
    errno = ENXIO;
    return NULL;
}

int getlogin_r(char *name, size_t size)
{
    (void)name;
    (void)size;
    return ENXIO;
}

/* ttyname: a terminal is the host's, known only as "/dev/tty"; anything else is not one. */
int ttyname_r(int fd, char *buf, size_t size)
{
    static const char tty[] = "/dev/tty";
    if (!isatty(fd))
        return errno == EBADF ? EBADF : ENOTTY;
    if (size < sizeof tty)
        return ERANGE;
    memcpy(buf, tty, sizeof tty);
    return 0;
}

char *ttyname(int fd)
{
    static char name[16];
    int err = ttyname_r(fd, name, sizeof name);
    if (err != 0) {
        errno = err;
        return NULL;
    }
    return name;
}
