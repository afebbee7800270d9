// strerror's texts are glibc's: wasi-libc words 31 errors differently ("Symbolic link loop" for
// ELOOP, which Emscripten's test_fcntl_open prints). Every error both libcs name, by name;
// then strerror_r (the XSI form, which both libcs give without _GNU_SOURCE): its texts, EINVAL
// for an unknown number, ERANGE and a cut text for a short buffer.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "posix_report.h"

static void show_r(const char *what, int errnum, size_t size)
{
    char buf[64] = "untouched";
    report_errnum(what, strerror_r(errnum, buf, size));
    printf("  [%s]\n", buf);
}

#define SHOW(name) printf("%s: %s\n", #name, strerror(name))

int main(void)
{
    SHOW(E2BIG);
    SHOW(EACCES);
    SHOW(EADDRINUSE);
    SHOW(EADDRNOTAVAIL);
    SHOW(EAFNOSUPPORT);
    SHOW(EAGAIN);
    SHOW(EALREADY);
    SHOW(EBADF);
    SHOW(EBADMSG);
    SHOW(EBUSY);
    SHOW(ECANCELED);
    SHOW(ECHILD);
    SHOW(ECONNABORTED);
    SHOW(ECONNREFUSED);
    SHOW(ECONNRESET);
    SHOW(EDEADLK);
    SHOW(EDESTADDRREQ);
    SHOW(EDOM);
    SHOW(EDQUOT);
    SHOW(EEXIST);
    SHOW(EFAULT);
    SHOW(EFBIG);
    SHOW(EHOSTUNREACH);
    SHOW(EIDRM);
    SHOW(EILSEQ);
    SHOW(EINPROGRESS);
    SHOW(EINTR);
    SHOW(EINVAL);
    SHOW(EIO);
    SHOW(EISCONN);
    SHOW(EISDIR);
    SHOW(ELOOP);
    SHOW(EMFILE);
    SHOW(EMLINK);
    SHOW(EMSGSIZE);
    SHOW(EMULTIHOP);
    SHOW(ENAMETOOLONG);
    SHOW(ENETDOWN);
    SHOW(ENETRESET);
    SHOW(ENETUNREACH);
    SHOW(ENFILE);
    SHOW(ENOBUFS);
    SHOW(ENODEV);
    SHOW(ENOENT);
    SHOW(ENOEXEC);
    SHOW(ENOLCK);
    SHOW(ENOLINK);
    SHOW(ENOMEM);
    SHOW(ENOMSG);
    SHOW(ENOPROTOOPT);
    SHOW(ENOSPC);
    SHOW(ENOSYS);
    SHOW(ENOTCONN);
    SHOW(ENOTDIR);
    SHOW(ENOTEMPTY);
    SHOW(ENOTRECOVERABLE);
    SHOW(ENOTSOCK);
    SHOW(ENOTSUP);
    SHOW(ENOTTY);
    SHOW(ENXIO);
    SHOW(EOPNOTSUPP);
    SHOW(EOVERFLOW);
    SHOW(EOWNERDEAD);
    SHOW(EPERM);
    SHOW(EPIPE);
    SHOW(EPROTO);
    SHOW(EPROTONOSUPPORT);
    SHOW(EPROTOTYPE);
    SHOW(ERANGE);
    SHOW(EROFS);
    SHOW(ESPIPE);
    SHOW(ESRCH);
    SHOW(ESTALE);
    SHOW(ETIMEDOUT);
    SHOW(ETXTBSY);
    SHOW(EXDEV);
    show_r("strerror_r(ELOOP, 64)", ELOOP, 64);
    show_r("strerror_r(9999, 64)", 9999, 64);
    show_r("strerror_r(-1, 64)", -1, 64);
    show_r("strerror_r(ELOOP, 8)", ELOOP, 8);
    show_r("strerror_r(ENOENT, 26)", ENOENT, 26);
    show_r("strerror_r(ENOENT, 25)", ENOENT, 25);
    return 0;
}
