/* rmdir of the root ("/", "//"...) is EBUSY on Linux; wasi-libc turns it into "." relative
 * to the preopen, which the filesystem rightly answers EINVAL. Linked with --wrap=rmdir. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

int __real_rmdir(const char *path);

int __wrap_rmdir(const char *path)
{
    if (path[0] == '/' && path[strspn(path, "/")] == '\0') {
        errno = EBUSY;
        return -1;
    }
    return __real_rmdir(path);
}
