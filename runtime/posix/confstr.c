/* confstr: the strings wasi-libc left empty or refused (EINVAL) get what a Linux program
 * expects to find. The width-restricted environments name wasm32's one: 32-bit int, long and
 * pointers with a 64-bit off_t (ILP32_OFFBIG). There is no glibc or NPTL: the version names are
 * Spindle's, in glibc's "NAME VERSION" form, so code that splits or parses them still can.
 * The rest is as libc had it: _CS_PATH, and empty compiler flags for each environment. It
 * replaces libc's definition (a --wrap would force libc's into every module). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#define SPINDLE_VERSION "0.1"

static const char *answer(int name)
{
    switch (name) {
    case _CS_PATH:
        return "/bin:/usr/bin";
    case _CS_POSIX_V6_WIDTH_RESTRICTED_ENVS:
        return "POSIX_V6_ILP32_OFFBIG";
    case _CS_POSIX_V7_WIDTH_RESTRICTED_ENVS:
        return "POSIX_V7_ILP32_OFFBIG";
    case _CS_POSIX_V5_WIDTH_RESTRICTED_ENVS:
        return "XBS5_ILP32_OFFBIG";
    case _CS_GNU_LIBC_VERSION:
        return "spindle " SPINDLE_VERSION;
    case _CS_GNU_LIBPTHREAD_VERSION:
        return "spindle-threads " SPINDLE_VERSION;
    default: /* _CS_POSIX_V6_ILP32_OFF32_CFLAGS ... _CS_V7_ENV */
        return name >= _CS_POSIX_V6_ILP32_OFF32_CFLAGS && name <= _CS_V7_ENV ? "" : NULL;
    }
}

/* the length with its NUL; what fits of it is copied, NUL-terminated, as libc does */
size_t confstr(int name, char *buf, size_t len)
{
    const char *text = answer(name);
    if (text == NULL) {
        errno = EINVAL;
        return 0;
    }
    return (size_t)snprintf(buf, len, "%s", text) + 1;
}
