/* Spindle's POSIX layer (docs/POSIX.md): readdir_r, which wasi-libc's <dirent.h> leaves out. */
#include_next <dirent.h>

#ifndef SPINDLE_POSIX_DIRENT_H
#define SPINDLE_POSIX_DIRENT_H
#ifdef __cplusplus
extern "C" {
#endif
int readdir_r(DIR *__restrict, struct dirent *__restrict, struct dirent **__restrict);
#ifdef __cplusplus
}
#endif
#endif
