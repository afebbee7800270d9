/* Spindle's POSIX layer (docs/POSIX.md): umask, lchmod, mknod and statx (Linux's struct and flags),
 * which wasi-libc's <sys/stat.h> leaves out. */
#include_next <sys/stat.h>

#ifndef SPINDLE_POSIX_SYS_STAT_H
#define SPINDLE_POSIX_SYS_STAT_H
#ifdef __cplusplus
extern "C" {
#endif
mode_t umask(mode_t);
int lchmod(const char *, mode_t);
int mknod(const char *, mode_t, dev_t);
int mknodat(int, const char *, mode_t, dev_t);

#if defined(_GNU_SOURCE) && !defined(STATX_TYPE)
#include <stdint.h>
#define STATX_TYPE 0x1U
#define STATX_MODE 0x2U
#define STATX_NLINK 0x4U
#define STATX_UID 0x8U
#define STATX_GID 0x10U
#define STATX_ATIME 0x20U
#define STATX_MTIME 0x40U
#define STATX_CTIME 0x80U
#define STATX_INO 0x100U
#define STATX_SIZE 0x200U
#define STATX_BLOCKS 0x400U
#define STATX_BASIC_STATS 0x7ffU
#define STATX_BTIME 0x800U
#define STATX_ALL 0xfffU
struct statx_timestamp {
    int64_t tv_sec;
    uint32_t tv_nsec;
    int32_t __reserved;
};
struct statx {
    uint32_t stx_mask;
    uint32_t stx_blksize;
    uint64_t stx_attributes;
    uint32_t stx_nlink;
    uint32_t stx_uid;
    uint32_t stx_gid;
    uint16_t stx_mode;
    uint16_t __pad0;
    uint64_t stx_ino;
    uint64_t stx_size;
    uint64_t stx_blocks;
    uint64_t stx_attributes_mask;
    struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
    uint32_t stx_rdev_major, stx_rdev_minor;
    uint32_t stx_dev_major, stx_dev_minor;
    uint64_t __spare[14];
};
int statx(int, const char *__restrict, int, unsigned, struct statx *__restrict);
#endif
#ifdef __cplusplus
}
#endif
#endif
