/* Spindle's POSIX layer (docs/POSIX.md): tmpfile and tmpnam, which wasi-libc declares as
 * deprecated ("not defined on WASI"), and L_tmpnam, TMP_MAX, P_tmpdir, which it hides;
 * runtime/posix/temp_files.c defines the functions. The sysroot's
 * declarations are renamed out of the way so that using them draws no warning. */
#define tmpfile __spindle_sysroot_tmpfile
#define tmpnam __spindle_sysroot_tmpnam
#include_next <stdio.h>
#undef tmpfile
#undef tmpnam

#ifndef SPINDLE_POSIX_STDIO_H
#define SPINDLE_POSIX_STDIO_H
#ifdef __cplusplus
extern "C" {
#endif
FILE *tmpfile(void);
char *tmpnam(char *);
/* no shell: the command's output is empty and its status 127 (runtime/posix/popen.c) */
FILE *popen(const char *, const char *);
int pclose(FILE *);
#ifndef L_tmpnam
#define L_tmpnam 20
#endif
#ifndef TMP_MAX
#define TMP_MAX 238328 /* glibc's: 62^3 */
#endif
#if defined(_XOPEN_SOURCE) || defined(_GNU_SOURCE) || defined(_BSD_SOURCE)
#ifndef P_tmpdir
#define P_tmpdir "/tmp"
#endif
#endif
#ifdef __cplusplus
}
#endif
#endif
