/* Spindle's POSIX layer (docs/POSIX.md): the temporary-file functions wasi-libc's <stdlib.h>
 * leaves out (runtime/posix/temp_files.c), and the status macros for system()'s result. */
#include_next <stdlib.h>

#ifndef SPINDLE_POSIX_STDLIB_H
#define SPINDLE_POSIX_STDLIB_H
#ifdef __cplusplus
extern "C" {
#endif
int mkstemp(char *);
int mkostemp(char *, int);
char *mkdtemp(char *);
#if defined(_GNU_SOURCE) || defined(_BSD_SOURCE)
char *mktemp(char *);
int mkstemps(char *, int);
int mkostemps(char *, int, int);
#endif
#ifdef __cplusplus
}
#endif

/* Linux's layout of a status: exit code in bits 8-15, terminating signal in bits 0-6. */
#ifndef WEXITSTATUS
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WTERMSIG(s) ((s) & 0x7f)
#define WSTOPSIG(s) WEXITSTATUS(s)
#define WIFEXITED(s) (WTERMSIG(s) == 0)
#define WIFSTOPPED(s) (((s) & 0xff) == 0x7f)
#define WIFSIGNALED(s) (WTERMSIG(s) != 0 && WTERMSIG(s) != 0x7f)
#endif
#endif
