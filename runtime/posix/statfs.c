/* statfs/fstatfs: Spindle's tree is memory, reported as a tmpfs whose size is the module's
 * maximum memory; free space is what memory can still grow by. The path or fd must exist. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

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

int fstatfs(int fd, struct statfs *out)
{
    if (fcntl(fd, F_GETFL) < 0)
        return -1;
    describe(out);
    return 0;
}
