/* Spindle's POSIX layer (runtime/posix, docs/POSIX.md): declarations wasi-libc's <unistd.h>
 * leaves out, for functions the layer defines. Found first on `spindle cc`'s include path. */
#ifndef _WASI_EMULATED_GETPID
#define _WASI_EMULATED_GETPID /* getpid is defined (runtime/posix/getpid.c): no deprecation */
#endif
#include_next <unistd.h>

#ifndef SPINDLE_POSIX_UNISTD_H
#define SPINDLE_POSIX_UNISTD_H
#ifdef __cplusplus
extern "C" {
#endif
int dup(int);
int dup2(int, int);
int dup3(int, int, int);
int chown(const char *, uid_t, gid_t);
int fchown(int, uid_t, gid_t);
int lchown(const char *, uid_t, gid_t);
int fchownat(int, const char *, uid_t, gid_t, int);
pid_t getppid(void);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
char *ttyname(int);
int ttyname_r(int, char *, size_t);
/* declared by wasi-libc, defined nowhere: there are no signals to deliver */
unsigned ualarm(unsigned, unsigned) __attribute__((unavailable("not in Spindle: no signals (SIGALRM)")));
#ifdef __cplusplus
}
#endif
#endif
