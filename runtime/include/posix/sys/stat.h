/* Spindle's POSIX layer (docs/POSIX.md): umask and lchmod, which wasi-libc's <sys/stat.h>
 * leaves out. */
#include_next <sys/stat.h>

#ifndef SPINDLE_POSIX_SYS_STAT_H
#define SPINDLE_POSIX_SYS_STAT_H
#ifdef __cplusplus
extern "C" {
#endif
mode_t umask(mode_t);
int lchmod(const char *, mode_t);
#ifdef __cplusplus
}
#endif
#endif
