/* Errno translation, memory checks, path copying and start-up of the
 * binding. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "wasi_support.h"

int32_t wasi_errno_from_linux(int linux_errno)
{
    switch (linux_errno) {
    case SPINDLE_EPERM:
        return WASI_EPERM;
    case SPINDLE_ENOENT:
        return WASI_ENOENT;
    case SPINDLE_EIO:
        return WASI_EIO;
    case SPINDLE_ENXIO:
        return WASI_ENXIO;
    case SPINDLE_EBADF:
        return WASI_EBADF;
    case SPINDLE_EAGAIN:
        return WASI_EAGAIN;
    case SPINDLE_ENOMEM:
        return WASI_ENOMEM;
    case SPINDLE_EACCES:
        return WASI_EACCES;
    case SPINDLE_EFAULT:
        return WASI_EFAULT;
    case SPINDLE_EBUSY:
        return WASI_EBUSY;
    case SPINDLE_EEXIST:
        return WASI_EEXIST;
    case SPINDLE_EXDEV:
        return WASI_EXDEV;
    case SPINDLE_ENODEV:
        return WASI_ENODEV;
    case SPINDLE_ENOTDIR:
        return WASI_ENOTDIR;
    case SPINDLE_EISDIR:
        return WASI_EISDIR;
    case SPINDLE_EINVAL:
        return WASI_EINVAL;
    case SPINDLE_EMFILE:
        return WASI_EMFILE;
    case SPINDLE_EFBIG:
        return WASI_EFBIG;
    case SPINDLE_ENOSPC:
        return WASI_ENOSPC;
    case SPINDLE_ESPIPE:
        return WASI_ESPIPE;
    case SPINDLE_EPIPE:
        return WASI_EPIPE;
    case SPINDLE_EMLINK:
        return WASI_EMLINK;
    case SPINDLE_ERANGE:
        return WASI_ERANGE;
    case SPINDLE_ENAMETOOLONG:
        return WASI_ENAMETOOLONG;
    case SPINDLE_ENOLCK:
        return WASI_ENOLCK;
    case SPINDLE_ENOSYS:
        return WASI_ENOSYS;
    case SPINDLE_ENOTEMPTY:
        return WASI_ENOTEMPTY;
    case SPINDLE_ELOOP:
        return WASI_ELOOP;
    case SPINDLE_EOVERFLOW:
        return WASI_EOVERFLOW;
    case SPINDLE_EILSEQ:
        return WASI_EILSEQ;
    case SPINDLE_ENOTSUP:
        return WASI_ENOTSUP;
    default:
        return WASI_EIO;
    }
}

bool wasi_in_memory(uint32_t ptr, uint64_t len)
{
    uint64_t size = (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
    return (uint64_t)ptr + len <= size;
}

int32_t wasi_path_get(struct wasi_path *out, uint32_t ptr, uint32_t len)
{
    if (!wasi_in_memory(ptr, len))
        return WASI_EFAULT;
    if (len >= SPINDLE_FS_PATH_MAX)
        return WASI_ENAMETOOLONG;
    memcpy(out->text, WASI_PTR(ptr), len);
    out->text[len] = '\0';
    if (strlen(out->text) != len) /* an embedded NUL cannot name anything */
        return WASI_EINVAL;
    return WASI_ESUCCESS;
}

int32_t wasi_path_then_ready(struct wasi_path *out, uint32_t ptr, uint32_t len)
{
    int32_t err = wasi_path_get(out, ptr, len);
    return err != WASI_ESUCCESS ? err : wasi_fs_ready();
}

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool ready;
static atomic_int preopen_fd = -1;

int32_t wasi_fs_ready(void)
{
    if (atomic_load_explicit(&ready, memory_order_acquire))
        return WASI_ESUCCESS;
    int32_t rc = WASI_ESUCCESS;
    pthread_mutex_lock(&ready_lock);
    if (!atomic_load_explicit(&ready, memory_order_relaxed)) {
        int err = spindle_fs_init();
        spindle_fs_set_stdio_host(&wasi_stdio_host); /* /dev/stdout & co. */
        int fd = err < 0
                     ? err
                     : spindle_fs_openat(SPINDLE_AT_FDCWD, "/", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
        if (fd >= 0) { /* out of the program's way: its first open gets 3, as on Linux */
            int top = spindle_fs_dup2(fd, WASI_PREOPEN_FD);
            spindle_fs_close(fd);
            fd = top;
        }
        if (fd < 0) {
            rc = wasi_errno_from_linux(-fd);
        } else {
            atomic_store(&preopen_fd, fd);
            spindle_fs_set_hidden_fd(fd); /* Linux has no such fd: /proc/self/fd does not list it */
            atomic_store_explicit(&ready, true, memory_order_release);
        }
    }
    pthread_mutex_unlock(&ready_lock);
    return rc;
}

int wasi_preopen_fd(void) { return atomic_load(&preopen_fd); }

void wasi_preopen_forget(int fd)
{
    int expected = fd;
    if (atomic_compare_exchange_strong(&preopen_fd, &expected, -1))
        spindle_fs_set_hidden_fd(-1); /* a later open may get that fd: it is the program's */
}

int32_t wasi_then_ready(int32_t err, uint32_t out_ptr, uint64_t out_len)
{
    if (err != WASI_ESUCCESS)
        return err;
    if (!wasi_in_memory(out_ptr, out_len))
        return WASI_EFAULT;
    return wasi_fs_ready();
}
