/* Shared pieces of the POSIX layer (runtime/posix, docs/POSIX.md): how it reaches Spindle's
 * filesystem core when the program has it (--fs=spindle), and path resolution. */
#ifndef SPINDLE_POSIX_INTERNAL_H
#define SPINDLE_POSIX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "../include/spindle/fs.h"

/* The core and runtime/wasi are linked only with --fs=spindle. Weak references: with another
 * --fs mode they are null and the layer falls back to libc (or reports ENOSYS). */
#pragma weak spindle_fs_fstat
#pragma weak spindle_fs_fstatat
#pragma weak spindle_fs_faccessat
#pragma weak spindle_fs_fchmodat
#pragma weak spindle_fs_fchmod
#pragma weak spindle_fs_fchownat
#pragma weak spindle_fs_fchown
#pragma weak spindle_fs_dupfd
#pragma weak spindle_fs_dup2
#pragma weak spindle_fs_dup_stdio
#pragma weak spindle_fs_stdio_source
#pragma weak spindle_fs_fd_in_table
#pragma weak spindle_fs_close
#pragma weak spindle_fs_getfl
#pragma weak spindle_fs_ftype
#pragma weak spindle_fs_get_pipe_size
#pragma weak spindle_fs_set_pipe_size
int32_t wasi_fs_ready(void) __attribute__((weak));
int32_t wasi_errno_from_linux(int linux_errno) __attribute__((weak));

/* fds below 3 are the host's stdio until dup2 puts a description of the core there */
#define POSIX_FIRST_CORE_FD SPINDLE_FS_FIRST_FD
/* true for fd 0-2 while it is the host's (always, without the core) */
bool posix_host_stdio(int fd);

/* true if the program has Spindle's filesystem and it is started; else errno may be set */
bool posix_core_ready(void);
/* a core result (>= 0 or -Linux errno) as a libc result: -1 with errno set on failure */
long posix_core_result(int64_t rc);

/* dirfd + path as the core resolves them: AT_FDCWD and absolute paths through libc's working
 * directory and preopen. Returns the fd to start from, or -1 with errno (ENOENT for "").
 * *relative may be in `scratch` (the caller's, on its stack: no malloc for the usual path);
 * *to_free is what to free afterwards (may be NULL). */
#define POSIX_RESOLVE_SCRATCH 256
int posix_resolve(int dirfd, const char *path, char scratch[POSIX_RESOLVE_SCRATCH], const char **relative,
                  char **to_free);

/* libc's AT_SYMLINK_NOFOLLOW in `flags` as the core's flag (the only *at flag the core takes) */
int posix_core_at_flags(int flags);

/* the core's stat as libc's struct stat */
void posix_stat_from_core(const struct spindle_stat *in, struct stat *out);

/* Linux's struct dirent from WASI's (directory_stream.c): a WASI file type as a DT_* value, and
 * d_reclen for a name of name_len bytes */
unsigned char posix_dirent_type(uint8_t wasi_type);
size_t posix_dirent_length(size_t name_len);

/* the permission bits a newly created file or directory gets: requested & ~umask */
uint32_t posix_apply_umask(uint32_t requested);

#endif
