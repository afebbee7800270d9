/* strerror as glibc words it. wasi-libc's texts (musl's) differ for 31 errors ("Symbolic link
 * loop" where Linux says "Too many levels of symbolic links"), and a program's messages should
 * read as they do on Linux. Numbers libc has no text for give "Unknown error N", as glibc says
 * (wasi-libc reused another message, strerror(-1) was "Success"). strerror_r gives the same
 * texts, with glibc's results: EINVAL for an unknown number, ERANGE for a buffer too short for
 * the text (cut to fit, as glibc does); musl's gave 0 for both. Linked with
 * --wrap=strerror,strerror_r. */
#include <errno.h>
#include <string.h>

#include "../include/spindle/decimal.h"

char *__real_strerror(int errnum);

/* The errors whose glibc text differs from wasi-libc's; the others are the same in both. */
static const struct {
    int errnum;
    const char *text;
} glibc_texts[] = {
    {EADDRINUSE, "Address already in use"},
    {EADDRNOTAVAIL, "Cannot assign requested address"},
    {EBUSY, "Device or resource busy"},
    {ECHILD, "No child processes"},
    {ECONNABORTED, "Software caused connection abort"},
    {EDEADLK, "Resource deadlock avoided"},
    {EDOM, "Numerical argument out of domain"},
    {EDQUOT, "Disk quota exceeded"},
    {EHOSTUNREACH, "No route to host"},
    {EILSEQ, "Invalid or incomplete multibyte or wide character"},
    {EINPROGRESS, "Operation now in progress"},
    {EIO, "Input/output error"},
    {EISCONN, "Transport endpoint is already connected"},
    {ELOOP, "Too many levels of symbolic links"},
    {EMFILE, "Too many open files"},
    {EMSGSIZE, "Message too long"},
    {ENAMETOOLONG, "File name too long"},
    {ENETRESET, "Network dropped connection on reset"},
    {ENETUNREACH, "Network is unreachable"},
    {ENOMEM, "Cannot allocate memory"},
    {ENOTCONN, "Transport endpoint is not connected"},
    {ENOTSOCK, "Socket operation on non-socket"},
    {ENOTSUP, "Operation not supported"}, /* EOPNOTSUPP is the same number in WASI */
    {ENOTTY, "Inappropriate ioctl for device"},
    {EOVERFLOW, "Value too large for defined data type"},
    {EOWNERDEAD, "Owner died"},
    {ERANGE, "Numerical result out of range"},
    {ESPIPE, "Illegal seek"},
    {ETIMEDOUT, "Connection timed out"},
    {EXDEV, "Invalid cross-device link"},
};

/* libc gives a number it does not know the text of 0 ("Success") */
static int is_known(int errnum) { return errnum == 0 || __real_strerror(errnum) != __real_strerror(0); }

char *__wrap_strerror(int errnum)
{
    for (unsigned i = 0; i < sizeof glibc_texts / sizeof glibc_texts[0]; i++) {
        if (glibc_texts[i].errnum == errnum)
            return (char *)glibc_texts[i].text;
    }
    static _Thread_local char unknown[32];
    if (!is_known(errnum)) {
        char *at = spindle_put_text(unknown, errnum < 0 ? "Unknown error -" : "Unknown error ");
        spindle_put_decimal(at, errnum < 0 ? -(uint64_t)errnum : (uint64_t)errnum);
        return unknown;
    }
    return __real_strerror(errnum);
}

int __wrap_strerror_r(int errnum, char *buf, size_t size)
{
    const char *text = __wrap_strerror(errnum);
    size_t len = strlen(text);
    if (size > 0) {
        size_t kept = len < size ? len : size - 1;
        memcpy(buf, text, kept);
        buf[kept] = '\0';
    }
    if (!is_known(errnum))
        return EINVAL;
    return len < size ? 0 : ERANGE;
}
