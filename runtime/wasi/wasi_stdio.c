/* The host's stdio as the filesystem core sees it (runtime/fs/special/proc_fd.c): /dev/stdin,
 * /dev/stdout, /dev/stderr, /proc/self/fd/0-2 and duplicates of fds 0-2 open descriptions whose
 * reads, writes, fstat and lseek go to the host's fds 0-2, and whose /proc/self/fd text is the host's. */
#include <stdint.h>
#include <string.h>

#include "../include/spindle/host_imports.h"
#include "wasi_host.h"
#include "wasi_support.h"

static int64_t linux_error(int32_t wasi_errno)
{
    switch (wasi_errno) {
    case WASI_EBADF:
        return -SPINDLE_EBADF;
    case WASI_EAGAIN:
        return -SPINDLE_EAGAIN;
    case WASI_EPIPE:
        return -SPINDLE_EPIPE;
    case WASI_ESPIPE:
        return -SPINDLE_ESPIPE;
    case WASI_EINVAL:
        return -SPINDLE_EINVAL;
    case WASI_EFBIG:
        return -SPINDLE_EFBIG;
    case WASI_ENOSPC:
        return -SPINDLE_ENOSPC;
    default:
        return -SPINDLE_EIO;
    }
}

/* wasm32 iovecs have the same layout as the core's (checked in wasi_fd_calls.c). An offset
 * (pread/pwrite of a duplicate) goes to the host as one: its kernel honours it or says ESPIPE. */
static int64_t transfer(int fd, const struct spindle_iovec *iov, int iovcnt, int write, int64_t offset)
{
    uint32_t done = 0;
    int32_t vec = (int32_t)(uintptr_t)iov, out = (int32_t)(uintptr_t)&done;
    int32_t err;
    if (offset < 0)
        err = write ? host_fd_write(fd, vec, iovcnt, out) : host_fd_read(fd, vec, iovcnt, out);
    else
        err = write ? host_fd_pwrite(fd, vec, iovcnt, offset, out)
                    : host_fd_pread(fd, vec, iovcnt, offset, out);
    return err == WASI_ESUCCESS ? (int64_t)done : linux_error(err);
}

static struct spindle_timespec from_ns(uint64_t ns)
{
    return (struct spindle_timespec){(int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u)};
}

static int stat_host(int fd, struct spindle_stat *st)
{
    struct wasi_filestat host;
    int32_t err = host_fd_filestat_get(fd, (int32_t)(uintptr_t)&host);
    if (err != WASI_ESUCCESS)
        return (int)linux_error(err);
    memset(st, 0, sizeof *st);
    st->dev = host.dev;
    st->ino = host.ino;
    st->mode = wasi_stdio_mode(host.filetype);
    st->nlink = host.nlink;
    st->size = (int64_t)host.size;
    st->atim = from_ns(host.atim);
    st->mtim = from_ns(host.mtim);
    st->ctim = from_ns(host.ctim);
    return 0;
}

/* WASI and Linux number whence alike */
static int64_t seek_host(int fd, int64_t offset, int whence)
{
    uint64_t position = 0;
    int32_t err = host_fd_seek(fd, offset, whence, (int32_t)(uintptr_t)&position);
    return err == WASI_ESUCCESS ? (int64_t)position : linux_error(err);
}

static int describe(int fd, char *text, size_t size)
{
    int32_t len = spindle_host_stdio_name(fd, text, (int32_t)size - 1);
    if (len < 0 || (size_t)len >= size)
        return -SPINDLE_EIO;
    text[len] = '\0';
    return 0;
}

static int truncate_host(int fd, int64_t length)
{
    int32_t err = host_fd_filestat_set_size(fd, length);
    return err == WASI_ESUCCESS ? 0 : (int)linux_error(err);
}

const struct spindle_stdio_host wasi_stdio_host = {transfer, stat_host, seek_host, describe, truncate_host};

uint32_t wasi_stdio_mode(uint8_t filetype)
{
    switch (filetype) {
    case WASI_FILETYPE_REGULAR_FILE:
        return SPINDLE_S_IFREG;
    case WASI_FILETYPE_CHARACTER_DEVICE:
        return SPINDLE_S_IFCHR;
    case WASI_FILETYPE_DIRECTORY:
        return SPINDLE_S_IFDIR;
    case WASI_FILETYPE_BLOCK_DEVICE:
        return SPINDLE_S_IFBLK;
    case WASI_FILETYPE_SOCKET_DGRAM:
    case WASI_FILETYPE_SOCKET_STREAM:
        return SPINDLE_S_IFSOCK;
    default:
        return SPINDLE_S_IFIFO; /* WASI has no FIFO type: the host reports a pipe as unknown */
    }
}
