/* The parts of the WASI preview1 ABI the binding needs: numbering and the
 * byte layouts it writes into linear memory (from the witx definitions;
 * written here so the binding does not depend on a particular libc's
 * <wasi/api.h>). */
#ifndef SPINDLE_WASI_ABI_H
#define SPINDLE_WASI_ABI_H

#include <stdint.h>

enum {
    WASI_ESUCCESS = 0,
    WASI_EACCES = 2,
    WASI_EAGAIN = 6,
    WASI_EBADF = 8,
    WASI_EBUSY = 10,
    WASI_EEXIST = 20,
    WASI_EFAULT = 21,
    WASI_EFBIG = 22,
    WASI_EILSEQ = 25,
    WASI_EINVAL = 28,
    WASI_EIO = 29,
    WASI_EISDIR = 31,
    WASI_ELOOP = 32,
    WASI_EMFILE = 33,
    WASI_EMLINK = 34,
    WASI_ENAMETOOLONG = 37,
    WASI_ENODEV = 43,
    WASI_ENOENT = 44,
    WASI_ENOLCK = 46,
    WASI_ENOMEM = 48,
    WASI_ENOSPC = 51,
    WASI_ENOSYS = 52,
    WASI_ENOTDIR = 54,
    WASI_ENOTEMPTY = 55,
    WASI_ENOTSUP = 58,
    WASI_ENXIO = 60,
    WASI_EOVERFLOW = 61,
    WASI_EPERM = 63,
    WASI_EPIPE = 64,
    WASI_ERANGE = 68,
    WASI_ESPIPE = 70,
    WASI_EXDEV = 75,
};

enum {
    WASI_FILETYPE_UNKNOWN = 0,
    WASI_FILETYPE_BLOCK_DEVICE = 1,
    WASI_FILETYPE_CHARACTER_DEVICE = 2,
    WASI_FILETYPE_DIRECTORY = 3,
    WASI_FILETYPE_REGULAR_FILE = 4,
    WASI_FILETYPE_SOCKET_DGRAM = 5,
    WASI_FILETYPE_SOCKET_STREAM = 6,
    WASI_FILETYPE_SYMBOLIC_LINK = 7,
};

#define WASI_RIGHT_FD_READ ((uint64_t)1 << 1)
#define WASI_RIGHT_FD_WRITE ((uint64_t)1 << 6)
#define WASI_RIGHT_FD_READDIR ((uint64_t)1 << 14)
#define WASI_RIGHTS_ALL (((uint64_t)1 << 30) - 1) /* fd_datasync .. sock_accept */

#define WASI_OFLAGS_CREAT 1
#define WASI_OFLAGS_DIRECTORY 2
#define WASI_OFLAGS_EXCL 4
#define WASI_OFLAGS_TRUNC 8

#define WASI_FDFLAGS_APPEND 1
#define WASI_FDFLAGS_DSYNC 2
#define WASI_FDFLAGS_NONBLOCK 4
#define WASI_FDFLAGS_RSYNC 8
#define WASI_FDFLAGS_SYNC 16

#define WASI_LOOKUP_SYMLINK_FOLLOW 1

#define WASI_FSTFLAGS_ATIM 1
#define WASI_FSTFLAGS_ATIM_NOW 2
#define WASI_FSTFLAGS_MTIM 4
#define WASI_FSTFLAGS_MTIM_NOW 8

#define WASI_PREOPENTYPE_DIR 0
#define WASI_PREOPENTYPE_NOT_DIR 1 /* no such type in WASI: wasi-libc's scan skips it */

struct wasi_iovec {
    uint32_t buf;
    uint32_t len;
};

struct wasi_fdstat {
    uint8_t filetype;
    uint16_t flags;
    uint64_t rights_base;
    uint64_t rights_inheriting;
};

struct wasi_filestat {
    uint64_t dev;
    uint64_t ino;
    uint8_t filetype;
    uint64_t nlink;
    uint64_t size;
    uint64_t atim;
    uint64_t mtim;
    uint64_t ctim;
};

struct wasi_dirent {
    uint64_t next;
    uint64_t ino;
    uint32_t namlen;
    uint8_t type;
};

struct wasi_prestat {
    uint8_t tag;
    uint32_t dir_name_len;
};

_Static_assert(sizeof(struct wasi_fdstat) == 24, "fdstat layout");
_Static_assert(sizeof(struct wasi_filestat) == 64, "filestat layout");
_Static_assert(sizeof(struct wasi_dirent) == 24, "dirent layout");
_Static_assert(sizeof(struct wasi_prestat) == 8, "prestat layout");

#endif
