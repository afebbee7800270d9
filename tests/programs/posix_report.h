// Shared by the posix_*.c programs: prints a call's result with errno's name (not strerror's
// text, which differs between C libraries), so the output can be compared with Linux's.
#ifndef POSIX_REPORT_H
#define POSIX_REPORT_H
#include <errno.h>
#include <stdio.h>

static const char *errno_name(int e)
{
    switch (e) {
    case 0:
        return "";
    case EPERM:
        return "EPERM";
    case ENOENT:
        return "ENOENT";
    case EBADF:
        return "EBADF";
    case EACCES:
        return "EACCES";
    case EBUSY:
        return "EBUSY";
    case EEXIST:
        return "EEXIST";
    case ENOTDIR:
        return "ENOTDIR";
    case EISDIR:
        return "EISDIR";
    case EINVAL:
        return "EINVAL";
    case EMFILE:
        return "EMFILE";
    case ENOTTY:
        return "ENOTTY";
    case ENOSYS:
        return "ENOSYS";
    case ENOTEMPTY:
        return "ENOTEMPTY";
    case ENOTSOCK:
        return "ENOTSOCK";
    case EAFNOSUPPORT:
        return "EAFNOSUPPORT";
    case EOPNOTSUPP:
        return "EOPNOTSUPP";
    case ENXIO:
        return "ENXIO";
    case ERANGE:
        return "ERANGE";
    case ESRCH:
        return "ESRCH";
    case ENAMETOOLONG:
        return "ENAMETOOLONG";
    case ECHILD:
        return "ECHILD";
    case ESPIPE:
        return "ESPIPE";
    default:
        return "(other errno)";
    }
}

// rc < 0: the call failed, errno says why; errno is cleared for the next call
__attribute__((unused)) static void report(const char *what, long rc)
{
    printf("%-36s %s %s\n", what, rc < 0 ? "-1" : "ok", rc < 0 ? errno_name(errno) : "");
    errno = 0;
}

// the same for calls that return an error number (posix_fadvise, ttyname_r, readdir_r...)
__attribute__((unused)) static void report_errnum(const char *what, int err)
{
    printf("%-36s %s\n", what, err ? errno_name(err) : "0");
}
// Natively, gives up root to become uid/gid 1000, the ordinary user a Spindle program is
// (docs/POSIX.md, "Permissions"); programs linked --as-root define AS_ROOT and stay root.
#if !defined(__wasi__) && !defined(AS_ROOT)
#include <grp.h>
#include <unistd.h>
#endif
__attribute__((unused)) static void become_ordinary_user(void)
{
#if !defined(__wasi__) && !defined(AS_ROOT)
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(1000) != 0 || setuid(1000) != 0))
        printf("cannot drop root\n");
#endif
}
#endif
