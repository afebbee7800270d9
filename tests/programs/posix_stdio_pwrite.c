// pread and pwrite on fds 0-2 as the runner connects them ("stdinFrom": "file", "stdoutTo":
// "file", stderr a pipe): Linux reads and writes a regular file at the offset given and leaves
// the fd's own offset where it was; a stdout opened write-only gives EBADF to pread, a pipe
// ESPIPE to both. The file's final bytes are what is compared with the native run.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "posix_report.h"

static void show(const char *what, ssize_t rc, const char *buf)
{
    printf("%-32s %zd %s%s\n", what, rc, rc < 0 ? errno_name(errno) : "", buf ? buf : "");
    fflush(stdout); // in the file now: a later pwrite must not be overwritten by the buffer
    errno = 0;
}

int main(void)
{
    if (write(1, "0123456789\n", 11) != 11)
        perror("write");
    show("pwrite(1, \"ab\", 2, 2)", pwrite(1, "ab", 2, 2), NULL); // the line reads 01ab456789
    char buf[16] = {0};
    show("pread(1, 4, 0) (write-only)", pread(1, buf, 4, 0), NULL);
    show("pwrite(1, \"x\", 1, -1)", pwrite(1, "x", 1, -1), NULL);
    show("pwrite(2, \"x\", 1, 0) (a pipe)", pwrite(2, "x", 1, 0), NULL);
    show("pread(2, 1, 0) (a pipe)", pread(2, buf, 1, 0), NULL);
    show("pread(0, 4, 6) (a file)", pread(0, buf, 4, 6), buf);
    memset(buf, 0, sizeof buf);
    show("read(0, 5) still from 0", read(0, buf, 5), buf);
    show("pwrite(0, \"x\", 1, 0) (read-only)", pwrite(0, "x", 1, 0), NULL);
    show("pwrite(1, \"CD\", 2, 4) once more", pwrite(1, "CD", 2, 4), NULL); // 01abCD6789
    return 0;
}
