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
/* ids, process groups and sessions (identity.c, process_groups.c): one process that can only
 * keep the ids it has, leader of its own session */
int getgroups(int, gid_t[]);
int setuid(uid_t);
int seteuid(uid_t);
int setgid(gid_t);
int setegid(gid_t);
pid_t getpgrp(void);
pid_t getpgid(pid_t);
int setpgid(pid_t, pid_t);
pid_t setsid(void);
pid_t getsid(pid_t);
pid_t tcgetpgrp(int);
int tcsetpgrp(int, pid_t);
/* no other process can start (no_processes.c): -1 with ENOSYS */
pid_t fork(void);
int execve(const char *, char *const[], char *const[]);
int execv(const char *, char *const[]);
int execle(const char *, const char *, ...);
int execl(const char *, const char *, ...);
int execvp(const char *, char *const[]);
int execlp(const char *, const char *, ...);
int fexecve(int, char *const[], char *const[]);
int pause(void); /* no signal can end it (pause.c) */
#if defined(_XOPEN_SOURCE) || defined(_GNU_SOURCE) || defined(_BSD_SOURCE)
int setreuid(uid_t, uid_t);
int setregid(gid_t, gid_t);
int nice(int);
void sync(void);
pid_t setpgrp(void);
#endif
#if defined(_GNU_SOURCE) || defined(_BSD_SOURCE)
pid_t vfork(void);
int execvpe(const char *, char *const[], char *const[]);
int setgroups(size_t, const gid_t *);
#endif
#ifdef _GNU_SOURCE
pid_t gettid(void);
#endif
/* declared by wasi-libc, defined nowhere: there are no signals to deliver */
unsigned ualarm(unsigned, unsigned) __attribute__((unavailable("not in Spindle: no signals (SIGALRM)")));
#ifdef __cplusplus
}
#endif
#endif
