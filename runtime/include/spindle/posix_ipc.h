/* What wasi-libc's headers leave out for pipes and advisory locks, which
 * Spindle provides (runtime/posix-ipc): the fcntl lock and pipe-size commands
 * (Linux's numbers; wasi-libc's own fcntl commands are 1-4, so they cannot clash) and
 * the declarations of pipe, pipe2 and lockf. Reached through the fcntl.h and
 * unistd.h of runtime/include/ipc, which `spindle cc --fs=spindle` puts first
 * on the include path. */
#ifndef SPINDLE_POSIX_IPC_H
#define SPINDLE_POSIX_IPC_H

#include <sys/types.h>

#ifndef F_GETLK
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#endif
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#endif
#ifndef F_RDLCK
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#endif

#ifdef __cplusplus
extern "C" {
#endif

int pipe(int fds[2]);
int pipe2(int fds[2], int flags);
int lockf(int fd, int cmd, off_t len);

#ifdef __cplusplus
}
#endif

#endif
