/* The mount host protocol's bytes in linear memory (docs/MOUNTS.md section 3):
 * the request runtime/fs/mount/mount_host.c builds, its op numbers, and the stat
 * and directory-entry encodings the host writes back. The JavaScript side is
 * host/abi/mount-request.js and host/abi/mount-wire.js; tests/abi.test.js
 * compiles a check of every field and number here against it, so the two
 * cannot drift. */
#ifndef SPINDLE_MOUNT_WIRE_H
#define SPINDLE_MOUNT_WIRE_H

#include <stdint.h>

enum mount_op {
    MOUNT_OP_OPEN = 1,
    MOUNT_OP_CLOSE,
    MOUNT_OP_PREAD,
    MOUNT_OP_PWRITE,
    MOUNT_OP_FSTAT,
    MOUNT_OP_FTRUNCATE,
    MOUNT_OP_FSYNC,
    MOUNT_OP_READDIR,
    MOUNT_OP_STAT,
    MOUNT_OP_MKDIR,
    MOUNT_OP_UNLINK,
    MOUNT_OP_RENAME,
    MOUNT_OP_LINK,
    MOUNT_OP_SYMLINK,
    MOUNT_OP_READLINK,
    MOUNT_OP_UTIMENS,
    MOUNT_OP_FUTIMENS,
    MOUNT_OP_CHMOD,
    MOUNT_OP_FCHMOD,
};

/* The result meaning "the path continues elsewhere" (SPINDLE_MOUNT_FOLLOW in mount.h): the path
 * is NUL-terminated at `follow`, a buffer of MOUNT_FOLLOW_BYTES */
#define MOUNT_RESULT_FOLLOW (-4096)
#define MOUNT_FOLLOW_BYTES 4096

/* FSYNC's flags: only the data (fdatasync) */
#define MOUNT_FSYNC_DATASYNC 1

struct mount_request {
    int32_t state; /* 0 while in flight; the host stores 1 after the results */
    int32_t op;
    int32_t mount;
    int32_t flags;
    int64_t result;
    uint64_t handle;
    int64_t offset;
    uint32_t ptr, len;
    uint32_t path, path_len;
    uint32_t path2, path2_len;
    uint32_t mode; /* READDIR: the most entries wanted (0: as many as fit) */
    uint32_t follow; /* OPEN, STAT, UTIMENS, CHMOD: where MOUNT_RESULT_FOLLOW's path goes (0: EXDEV) */
    int64_t times[4]; /* atime sec, nsec, mtime sec, nsec */
};
_Static_assert(sizeof(struct mount_request) == 104, "request layout");

struct mount_wire_stat {
    uint64_t ino;
    uint32_t mode, pad;
    uint64_t nlink;
    int64_t size, blocks, atime_ns, mtime_ns, ctime_ns;
};
_Static_assert(sizeof(struct mount_wire_stat) == 64, "stat layout");

/* READDIR's entries: this header, the name's bytes, padding to 8 */
struct mount_wire_dirent {
    uint64_t next_cookie;
    uint64_t ino;
    uint8_t type; /* SPINDLE_DT_* */
    uint8_t pad;
    uint16_t name_len;
    uint32_t pad2;
};
_Static_assert(sizeof(struct mount_wire_dirent) == 24, "dirent layout");
#define MOUNT_WIRE_DIRENT_ALIGN 8

#endif
