/* Socket calls. A Spindle program has no network: socket() fails with EACCES for the Internet
 * and local families (as where a sandbox forbids them) and EAFNOSUPPORT for any other, so no fd
 * is ever a socket. Every call on an fd then answers as Linux does for a non-socket: EBADF if
 * the fd is not open, else ENOTSOCK (wasi-libc's versions give ENOSYS or the host's answer).
 * Linked with --wrap=shutdown,getsockopt,send,recv,accept,accept4. */
/* Every call here answers from the fd alone; its other arguments are not looked at. */
#pragma clang diagnostic ignored "-Wunused-parameter"
#define _GNU_SOURCE /* struct mmsghdr */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

/* -1 with errno: EBADF for a closed fd, ENOTSOCK for an open one */
static int not_a_socket(int fd)
{
    errno = fcntl(fd, F_GETFL) >= 0 ? ENOTSOCK : EBADF;
    return -1;
}

int socket(int domain, int type, int protocol)
{
    errno = domain == AF_INET || domain == AF_INET6 || domain == AF_UNIX ? EACCES : EAFNOSUPPORT;
    return -1;
}

int socketpair(int domain, int type, int protocol, int fds[2]) { return socket(domain, type, protocol); }

int bind(int fd, const struct sockaddr *addr, socklen_t len) { return not_a_socket(fd); }

int connect(int fd, const struct sockaddr *addr, socklen_t len) { return not_a_socket(fd); }

int listen(int fd, int backlog) { return not_a_socket(fd); }

int getsockname(int fd, struct sockaddr *restrict addr, socklen_t *restrict len) { return not_a_socket(fd); }

int getpeername(int fd, struct sockaddr *restrict addr, socklen_t *restrict len) { return not_a_socket(fd); }

int setsockopt(int fd, int level, int name, const void *value, socklen_t len) { return not_a_socket(fd); }

int __wrap_getsockopt(int fd, int level, int name, void *restrict value, socklen_t *restrict len)
{
    return not_a_socket(fd);
}

int __wrap_shutdown(int fd, int how) { return not_a_socket(fd); }

ssize_t __wrap_send(int fd, const void *buf, size_t len, int flags) { return not_a_socket(fd); }

ssize_t __wrap_recv(int fd, void *buf, size_t len, int flags) { return not_a_socket(fd); }

int __wrap_accept(int fd, struct sockaddr *restrict addr, socklen_t *restrict len)
{
    return not_a_socket(fd);
}

int sendmmsg(int fd, struct mmsghdr *msgs, unsigned int count, unsigned int flags)
{
    return not_a_socket(fd);
}

int recvmmsg(int fd, struct mmsghdr *msgs, unsigned int count, unsigned int flags, struct timespec *timeout)
{
    return not_a_socket(fd);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *addr, socklen_t alen)
{
    return not_a_socket(fd);
}

ssize_t recvfrom(int fd, void *restrict buf, size_t len, int flags, struct sockaddr *restrict addr,
                 socklen_t *restrict alen)
{
    return not_a_socket(fd);
}

int __wrap_accept4(int fd, struct sockaddr *restrict addr, socklen_t *restrict len, int flags)
{
    return __wrap_accept(fd, addr, len);
}
