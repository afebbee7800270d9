// pread and pwrite on a pipe's end opened the other way, and on duplicates of it and of the
// host's stdio pipes: Linux checks that the call has a position to use before the access mode,
// so each says ESPIPE, not EBADF; read and write on the wrong end still say EBADF.
#include <stdio.h>
#include <unistd.h>

#include "posix_report.h"

static void show(const char *what, ssize_t rc)
{
    printf("%-34s %zd %s\n", what, rc, rc < 0 ? errno_name(errno) : "");
    errno = 0;
}

int main(void)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        return 1;
    }
    char c = 'x', buf[1];
    int in = dup(fds[0]), out = dup(fds[1]);
    show("pread(write end)", pread(fds[1], buf, 1, 0));
    show("pwrite(read end)", pwrite(fds[0], &c, 1, 0));
    show("pread(dup of the write end)", pread(out, buf, 1, 0));
    show("pwrite(dup of the read end)", pwrite(in, &c, 1, 0));
    show("pread(dup of the read end)", pread(in, buf, 1, 0));
    show("pwrite(dup of the write end)", pwrite(out, &c, 1, 0));
    show("read(dup of the write end)", read(out, buf, 1));
    show("write(dup of the read end)", write(in, &c, 1));
    int stdin_copy = dup(0), stderr_copy = dup(2); // the runner's pipes
    show("pwrite(dup(0)) (a pipe)", pwrite(stdin_copy, &c, 1, 0));
    show("pread(dup(2)) (a pipe)", pread(stderr_copy, buf, 1, 0));
    close(stderr_copy);
    close(stdin_copy);
    close(out);
    close(in);
    close(fds[1]);
    close(fds[0]);
    return 0;
}
