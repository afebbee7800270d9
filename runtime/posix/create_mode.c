/* open and mkdir as on Linux: access mode 0 is O_RDONLY, the mode argument (less the umask)
 * becomes the new file's permission bits, and umask exists.
 *
 * wasi-libc's O_RDONLY is a bit of its own (not 0) and its open rejects an access mode of 0
 * with EINVAL, so Linux code such as open(p, O_CREAT, 0600) failed. WASI's path_open has no
 * mode: the wrappers hand it to runtime/wasi through a per-thread slot read by path_open and
 * path_create_directory during the call. Linked with --wrap=open,openat,mkdir,mkdirat. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/stat.h>

#include "posix_internal.h"

int __real_open(const char *path, int flags, ...);
int __real_openat(int dirfd, const char *path, int flags, ...);
int __real_mkdir(const char *path, mode_t mode);
int __real_mkdirat(int dirfd, const char *path, mode_t mode);

static atomic_uint current_umask = 022;
/* the mode of the create call in progress on this thread, or -1 */
static _Thread_local int64_t requested_mode = -1;

mode_t umask(mode_t mask) { return (mode_t)atomic_exchange(&current_umask, (unsigned)mask & 0777); }

uint32_t posix_apply_umask(uint32_t requested) { return requested & 07777 & ~atomic_load(&current_umask); }

/* For runtime/wasi: the permission bits of the file or directory being created, given what
 * WASI's call implies when no POSIX call is in progress (fopen: 0666, mkdir: 0777). */
uint32_t spindle_posix_creation_mode(uint32_t fallback)
{
    return posix_apply_umask(requested_mode >= 0 ? (uint32_t)requested_mode : fallback);
}

static int linux_access_mode(int flags) { return (flags & O_ACCMODE) == 0 ? flags | O_RDONLY : flags; }

/* The mode of a create that was given none: fopen's, so that the owner can read the file back
 * (with the default umask, 0644). */
#define MODE_WHEN_NONE_GIVEN 0666

/* wasm32's va_list is a pointer to the caller's variadic arguments, and clang passes a null
 * one when a call has none: open(p, O_CREAT | O_WRONLY), a common slip that Linux answers with
 * whatever a register holds, can be told from open(p, O_CREAT | O_WRONLY, 0). */
static mode_t mode_argument(int flags, va_list ap)
{
    if (!(flags & O_CREAT))
        return 0;
    if (ap == NULL)
        return MODE_WHEN_NONE_GIVEN;
    return (mode_t)va_arg(ap, int);
}

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    requested_mode = mode;
    int fd = __real_openat(dirfd, path, linux_access_mode(flags), mode);
    requested_mode = -1;
    return fd;
}

int __wrap_open(const char *path, int flags, ...)
{
    /* wasi-libc's openat(AT_FDCWD, ...) calls open() with no mode, and --wrap sends that call
     * here: the openat in progress on this thread keeps the mode it was given */
    if (requested_mode >= 0)
        return __real_open(path, linux_access_mode(flags), (mode_t)requested_mode);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    requested_mode = mode;
    int fd = __real_open(path, linux_access_mode(flags), mode);
    requested_mode = -1;
    return fd;
}

int __wrap_mkdirat(int dirfd, const char *path, mode_t mode)
{
    requested_mode = mode;
    int rc = __real_mkdirat(dirfd, path, mode);
    requested_mode = -1;
    return rc;
}

int __wrap_mkdir(const char *path, mode_t mode)
{
    requested_mode = mode;
    int rc = __real_mkdir(path, mode);
    requested_mode = -1;
    return rc;
}
