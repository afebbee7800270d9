/* Who the program is: one process of an ordinary user (uid and gid 1000) that owns every file,
 * or root when linked --as-root (runtime/include/spindle/identity.h), with no login session,
 * that cannot switch to another identity. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../include/spindle/identity.h"

uid_t getuid(void) { return spindle_user_id(); }
uid_t geteuid(void) { return spindle_user_id(); }
gid_t getgid(void) { return spindle_group_id(); }
gid_t getegid(void) { return spindle_group_id(); }
pid_t getppid(void) { return 0; } /* nothing started it that it can see */

/* There is no other identity to switch to. As for an unprivileged Linux process, setting an id
 * to the one it has succeeds and any other gives EPERM; (uid_t)-1 is not an id (EINVAL). The
 * ids are read through getuid()/getgid(), so these follow whatever those report. */
static int keep_id(unsigned requested, unsigned current)
{
    if (requested == (unsigned)-1) {
        errno = EINVAL;
        return -1;
    }
    if (requested != current) {
        errno = EPERM;
        return -1;
    }
    return 0;
}

int setuid(uid_t uid) { return keep_id(uid, getuid()); }
int seteuid(uid_t uid) { return keep_id(uid, geteuid()); }
int setgid(gid_t gid) { return keep_id(gid, getgid()); }
int setegid(gid_t gid) { return keep_id(gid, getegid()); }

/* setreuid/setregid: -1 leaves an id as it is */
static int keep_pair(unsigned real, unsigned effective, unsigned current)
{
    if ((real != (unsigned)-1 && real != current) || (effective != (unsigned)-1 && effective != current)) {
        errno = EPERM;
        return -1;
    }
    return 0;
}

int setreuid(uid_t real, uid_t effective) { return keep_pair(real, effective, getuid()); }
int setregid(gid_t real, gid_t effective) { return keep_pair(real, effective, getgid()); }

/* No supplementary groups; only a privileged process may set them. */
int getgroups(int size, gid_t list[])
{
    (void)list;
    if (size < 0) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int setgroups(size_t size, const gid_t *list)
{
    (void)size;
    (void)list;
    errno = EPERM;
    return -1;
}

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
