// pread and pwrite through duplicates of fds 0-2 (dup, F_DUPFD, an open of /dev/stdout) when
// stdout is a regular file ("stdoutTo": "file") and stdin and stderr are pipes: the file is
// written at the offset given and fd 1's offset stays, so the last write lands after the first
// line; a write-only duplicate gives EBADF to pread, a pipe's ESPIPE. The file's final bytes
// are what is compared with the native run.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "posix_report.h"

static void show(const char *what, ssize_t rc)
{
    printf("%-36s %zd %s\n", what, rc, rc < 0 ? errno_name(errno) : "");
    fflush(stdout); // in the file now: a later pwrite must not be overwritten by the buffer
    errno = 0;
}

int main(void)
{
    if (write(1, "0123456789\n", 11) != 11)
        perror("write");
    int copy = dup(1);
    int high = fcntl(1, F_DUPFD, 20);
    int opened = open("/dev/stdout", O_WRONLY);
    char buf[4];
    show("pwrite(dup(1), \"ab\", 2, 2)", pwrite(copy, "ab", 2, 2));
    show("pwrite(F_DUPFD of 1, \"CD\", 2, 4)", pwrite(high, "CD", 2, 4));
    show("pwrite(/dev/stdout, \"ef\", 2, 6)", pwrite(opened, "ef", 2, 6)); // 01abCDef89
    show("pread(dup(1), 2, 0) (write-only)", pread(copy, buf, 2, 0));
    int err = dup(2), in = dup(0);
    show("pwrite(dup(2), \"x\", 1, 0) (a pipe)", pwrite(err, "x", 1, 0));
    show("pread(dup(0), 1, 0) (a pipe)", pread(in, buf, 1, 0));
    if (write(copy, "the end\n", 8) != 8) // at fd 1's offset, which no pwrite moved
        perror("write");
    close(in);
    close(err);
    close(opened);
    close(high);
    close(copy);
    return 0;
}
