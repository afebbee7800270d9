/* Spindle's POSIX layer (docs/POSIX.md): the socket calls wasi-libc's <sys/socket.h> leaves
 * out. There is no network: socket() fails (EACCES, EAFNOSUPPORT) and calls on an fd give
 * EBADF or ENOTSOCK, as Linux does for an fd that is not a socket. */
#include_next <sys/socket.h>

#ifndef SPINDLE_POSIX_SYS_SOCKET_H
#define SPINDLE_POSIX_SYS_SOCKET_H
#ifdef __cplusplus
extern "C" {
#endif
int socket(int, int, int);
int socketpair(int, int, int, int[2]);
int connect(int, const struct sockaddr *, socklen_t);
int bind(int, const struct sockaddr *, socklen_t);
int listen(int, int);
int getsockname(int, struct sockaddr *__restrict, socklen_t *__restrict);
int getpeername(int, struct sockaddr *__restrict, socklen_t *__restrict);
int setsockopt(int, int, int, const void *, socklen_t);
ssize_t sendto(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
ssize_t recvfrom(int, void *__restrict, size_t, int, struct sockaddr *__restrict, socklen_t *__restrict);
#ifdef __cplusplus
}
#endif
#endif
