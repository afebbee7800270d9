/* Shared helpers of the WASI binding: errno translation, pointer checks
 * against linear memory, path arguments, start-up. */
#ifndef SPINDLE_WASI_SUPPORT_H
#define SPINDLE_WASI_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/spindle/fs.h"
#include "wasi_abi.h"

/* Linux errno (positive) -> WASI errno */
int32_t wasi_errno_from_linux(int linux_errno);
/* A core result: >= 0 is success, otherwise -errno. */
static inline int32_t wasi_result(int64_t rc)
{
    return rc >= 0 ? WASI_ESUCCESS : wasi_errno_from_linux((int)-rc);
}

/* true if [ptr, ptr+len) lies inside linear memory */
bool wasi_in_memory(uint32_t ptr, uint64_t len);
#define WASI_PTR(p) ((void *)(uintptr_t)(p))

/* fds below this belong to the host (stdio) and are forwarded, unless dup2 put one of the
 * table's descriptions there */
#define WASI_FIRST_OWN_FD SPINDLE_FS_FIRST_FD
/* WASI fds are unsigned: -1 is a huge fd (EBADF here), not the host's */
static inline bool wasi_host_fd(int32_t fd)
{
    return (uint32_t)fd < WASI_FIRST_OWN_FD && !spindle_fs_fd_in_table(fd);
}

/* the host's stdio for /dev/stdin, /dev/stdout, /dev/stderr and duplicates of fds 0-2
 * (wasi_stdio.c) */
extern const struct spindle_stdio_host wasi_stdio_host;
/* a stdio fd's WASI file type as S_IF* bits (a pipe is WASI's "unknown") */
uint32_t wasi_stdio_mode(uint8_t filetype);

/* where the "/" preopen lives: the last slot of the fd table */
#define WASI_PREOPEN_FD (SPINDLE_FS_MAX_FDS - 1)
/* Starts the filesystem and opens the "/" preopen once; WASI errno. */
int32_t wasi_fs_ready(void);
/* The common preconditions of a call that writes a result at out_ptr: the earlier error if
 * any, else EFAULT if the result would not fit in memory, else wasi_fs_ready(). */
int32_t wasi_then_ready(int32_t err, uint32_t out_ptr, uint64_t out_len);
/* Tells the filesystem the wall clock's time now (wasi_clock.c): after a sleep. */
void wasi_clock_seen_now(void);

/* the fd of the "/" preopen while it is still open, else -1 */
int wasi_preopen_fd(void);
void wasi_preopen_forget(int fd);

/* A path argument copied out of linear memory and NUL-terminated. */
struct wasi_path {
    char text[SPINDLE_FS_PATH_MAX + 1];
};
int32_t wasi_path_get(struct wasi_path *out, uint32_t ptr, uint32_t len);
/* The preconditions of a call whose last argument is a path: wasi_path_get, then
 * wasi_fs_ready(); WASI errno. */
int32_t wasi_path_then_ready(struct wasi_path *out, uint32_t ptr, uint32_t len);

/* core stat -> WASI filestat layout at dst */
void wasi_fill_filestat(const struct spindle_stat *st, void *dst);
/* WASI fstflags -> utimensat timespecs (UTIME_NOW / UTIME_OMIT); WASI errno */
int32_t wasi_times_from_flags(int64_t atim, int64_t mtim, int32_t fstflags, struct spindle_timespec times[2]);

#endif
