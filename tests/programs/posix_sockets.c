// Socket calls on fds that are not sockets answer as on Linux: EBADF for a closed fd,
// ENOTSOCK for an open file. Compared byte for byte with the native build; also --fs=js.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix_report.h"

static void try_all(const char *label, int fd)
{
    struct sockaddr_storage addr = {0};
    socklen_t len = sizeof addr;
    int value = 1;
    socklen_t vlen = sizeof value;
    char buf[4] = "abc";
    printf("-- %s\n", label);
    report("shutdown", shutdown(fd, SHUT_RDWR));
    report("getsockopt", getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &vlen));
    report("setsockopt", setsockopt(fd, SOL_SOCKET, SO_TYPE, &value, sizeof value));
    report("send", send(fd, buf, sizeof buf, 0));
    report("recv", recv(fd, buf, sizeof buf, 0));
    report("getsockname", getsockname(fd, (struct sockaddr *)&addr, &len));
    report("getpeername", getpeername(fd, (struct sockaddr *)&addr, &len));
    report("accept", accept(fd, (struct sockaddr *)&addr, &len));
    report("bind", bind(fd, (struct sockaddr *)&addr, sizeof(struct sockaddr)));
    report("connect", connect(fd, (struct sockaddr *)&addr, sizeof(struct sockaddr)));
    report("listen", listen(fd, 1));
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/posix_sockets.%d", (int)getpid());
    int fd = open(path, O_CREAT | O_RDWR, 0644);
    try_all("a closed fd", 99);
    try_all("a regular file", fd);
    int dfd = open("/tmp", O_RDONLY | O_DIRECTORY);
    try_all("a directory", dfd); // not stdio: the test runner's stdio may be real sockets natively
    close(dfd);
    close(fd);
    unlink(path);
    return 0;
}
