/* The host name: "localhost", the name Linux systems use when none was configured (wasi-libc
 * says "(none)", the kernel's unset value, which reads as an error in a program's output).
 * uname is linked with --wrap=uname so that its nodename says the same. */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char host_name[] = "localhost";

int __real_uname(struct utsname *out);

int __wrap_uname(struct utsname *out)
{
    if (__real_uname(out) < 0)
        return -1;
    strcpy(out->nodename, host_name);
    return 0;
}

/* glibc's rule: the name and its NUL must fit, else ENAMETOOLONG and nothing is cut */
int gethostname(char *name, size_t size)
{
    if (size < sizeof host_name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(name, host_name, sizeof host_name);
    return 0;
}
