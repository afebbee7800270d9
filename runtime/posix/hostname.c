/* The host name: "localhost", the name Linux systems use when none was configured (wasi-libc
 * says "(none)", the kernel's unset value, which reads as an error in a program's output).
 * uname says the same in nodename; its other fields are wasi-libc's. Both replace libc's
 * definitions (a --wrap would force libc's uname into every module, and with it stderr's
 * buffer). */
#define _GNU_SOURCE /* utsname's domainname */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char host_name[] = "localhost";

int uname(struct utsname *out)
{
    memset(out, 0, sizeof *out);
    strcpy(out->sysname, "wasi");
    strcpy(out->nodename, host_name);
    strcpy(out->release, "0.0.0");
    strcpy(out->version, "0.0.0");
    strcpy(out->machine, "wasm32");
    strcpy(out->domainname, "(none)");
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
