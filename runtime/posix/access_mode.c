/* access/faccessat answered by the mode bits (docs/POSIX.md, "Permissions"): libc's only
 * checks that the path exists. With another --fs mode they stay libc's. The real and the
 * effective ids are the same, so AT_EACCESS changes nothing. Linked with
 * --wrap=access,faccessat. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "posix_internal.h"

int __real_access(const char *path, int mode);
int __real_faccessat(int dirfd, const char *path, int mode, int flags);

int __wrap_faccessat(int dirfd, const char *path, int mode, int flags)
{
    if (!posix_core_ready())
        return __real_faccessat(dirfd, path, mode, flags);
    if ((flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW)) || (mode & ~(R_OK | W_OK | X_OK))) {
        errno = EINVAL;
        return -1;
    }
    const char *relative; /* an empty path: ENOENT from posix_resolve */
    char *to_free, scratch[POSIX_RESOLVE_SCRATCH];
    int start = posix_resolve(dirfd, path, scratch, &relative, &to_free);
    if (start < 0)
        return -1;
    /* R_OK/W_OK/X_OK are 4/2/1 in libc as in the core */
    int core_flags = posix_core_at_flags(flags);
    long rc = posix_core_result(spindle_fs_faccessat(start, relative, mode, core_flags));
    free(to_free);
    return (int)rc;
}

int __wrap_access(const char *path, int mode)
{
    if (!posix_core_ready())
        return __real_access(path, mode);
    return __wrap_faccessat(AT_FDCWD, path, mode, 0);
}
