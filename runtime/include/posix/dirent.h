/* Spindle's POSIX layer (docs/POSIX.md): readdir_r, which wasi-libc's <dirent.h> leaves out. */
#include_next <dirent.h>

#ifndef SPINDLE_POSIX_DIRENT_H
#define SPINDLE_POSIX_DIRENT_H
#ifdef __cplusplus
extern "C" {
#endif
int readdir_r(DIR *__restrict, struct dirent *__restrict, struct dirent **__restrict);
/* wasi-libc declares getdents but neither it nor Spindle defines it: its struct dirent has no
 * d_reclen, so a buffer of them could not be walked. A clear error instead of a link failure. */
int getdents(int, struct dirent *, size_t)
    __attribute__((unavailable("not in Spindle: wasi-libc's struct dirent has no d_reclen; use readdir")));
#ifdef __cplusplus
}
#endif
#endif
