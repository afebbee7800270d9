/* confstr: the strings wasi-libc leaves empty or refuses (EINVAL) get what a Linux program
 * expects to find. The width-restricted environments name wasm32's one: 32-bit int, long and
 * pointers with a 64-bit off_t (ILP32_OFFBIG). There is no glibc or NPTL: the version names are
 * Spindle's, in glibc's "NAME VERSION" form, so code that splits or parses them still can.
 * Linked with --wrap=confstr; every other name is libc's. */
#include <stdio.h>
#include <unistd.h>

#define SPINDLE_VERSION "0.1"

size_t __real_confstr(int name, char *buf, size_t len);

static const char *linux_answer(int name)
{
    switch (name) {
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
    default:
        return NULL;
    }
}

/* the length with its NUL; what fits of it is copied, NUL-terminated, as libc does */
size_t __wrap_confstr(int name, char *buf, size_t len)
{
    const char *answer = linux_answer(name);
    if (answer == NULL)
        return __real_confstr(name, buf, len);
    return (size_t)snprintf(buf, len, "%s", answer) + 1;
}
