/* statfs/fstatfs: Spindle's tree is memory, reported as a tmpfs whose size is the module's
 * maximum memory; free space is what memory can still grow by. The path or fd must exist.
 * The host's stdio (fds 0-2 until a dup2 onto them) is on the host's file system: its f_type is
 * the host's (a redirected file's ext4, a pipe's pipefs), as Linux reports it; so is a duplicate
 * of it. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "../include/spindle/host_imports.h"
#include "posix_internal.h"

#define TMPFS_MAGIC 0x01021994
#define BLOCK 4096u

static void describe(struct statfs *out)
{
    memset(out, 0, sizeof *out);
    uint64_t used = (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
    uint64_t max = (uint64_t)1 << 32; /* wasm32's ceiling; the module's own maximum is not visible */
    out->f_type = TMPFS_MAGIC;
    out->f_bsize = BLOCK;
    out->f_frsize = BLOCK;
    out->f_blocks = max / BLOCK;
    out->f_bfree = out->f_bavail = (max - used) / BLOCK;
    out->f_files = out->f_ffree = out->f_bavail;
    out->f_namelen = 255;
}

int statfs(const char *path, struct statfs *out)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    describe(out);
    return 0;
}

/* The host's stdio fd behind fd: fd itself while it is the host's, the source of a dup of stdio
 * (or of an open of /dev/stdout), else -1. */
static int host_stdio_behind(int fd)
{
    if (posix_host_stdio(fd))
        return fd;
    return spindle_fs_stdio_source ? spindle_fs_stdio_source(fd) : -1;
}

int fstatfs(int fd, struct statfs *out)
{
    if (fcntl(fd, F_GETFL) < 0)
        return -1;
    describe(out);
    int host_fd = host_stdio_behind(fd);
    uint32_t host_type = host_fd >= 0 ? (uint32_t)spindle_host_stdio_fs_type(host_fd) : 0;
    if (host_type != 0)
        out->f_type = host_type;
    return 0;
}
