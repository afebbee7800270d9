// fd numbering and duplication as on Linux: the first open is fd 3, dup/dup2/dup3 and
// fcntl(F_DUPFD, F_DUPFD_CLOEXEC) share the open file (offset), sysconf's limits are real
// numbers, strerror of an unknown number says so, posix_fadvise validates the fd.
// Compared byte for byte with the native build.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "posix_report.h"

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/posix_fds.%d", (int)getpid());
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    printf("first open: fd %d\n", fd);
    write(fd, "abcdef", 6);
    lseek(fd, 0, SEEK_SET);

    int d = dup(fd);
    printf("dup: fd %d\n", d);
    char c;
    read(d, &c, 1);
    printf("read through the dup: %c, offset seen by the original: %ld\n", c, (long)lseek(fd, 0, SEEK_CUR));
    printf("dup2(fd, 10): %d\n", dup2(fd, 10));
    printf("dup2(10, 10): %d\n", dup2(10, 10));
    read(10, &c, 1);
    printf("read through fd 10: %c\n", c);
    printf("dup2 over an open fd: %d\n", dup2(d, 10));
    printf("dup3(fd, 11, O_CLOEXEC): %d\n", dup3(fd, 11, O_CLOEXEC));
    report("dup3(fd, fd, 0)", dup3(fd, fd, 0));
    report("dup3(fd, 12, 12345)", dup3(fd, 12, 12345));
    printf("F_DUPFD 20: %d\n", fcntl(fd, F_DUPFD, 20));
    printf("F_DUPFD 20 again: %d\n", fcntl(fd, F_DUPFD, 20));
    printf("F_DUPFD_CLOEXEC 0: %d\n", fcntl(fd, F_DUPFD_CLOEXEC, 0));
    report("F_DUPFD -1", fcntl(fd, F_DUPFD, -1));
    report("dup(99)", dup(99));
    report("dup2(99, 30)", dup2(99, 30));
    report("dup2(99, 99)", dup2(99, 99));
    report("F_DUPFD on 99", fcntl(99, F_DUPFD, 0));
    report("F_GETFD on 99", fcntl(99, F_GETFD));
    report("F_SETFD on 99", fcntl(99, F_SETFD, FD_CLOEXEC));
    printf("F_GETFL access mode is O_RDWR: %d\n", (fcntl(20, F_GETFL) & O_ACCMODE) == O_RDWR);
    close(d);
    close(10);
    close(11);
    close(20);
    close(21);
    printf("after closing, dup: fd %d\n", dup(fd));

    report_errnum("posix_fadvise(fd, WILLNEED)", posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED));
    report_errnum("posix_fadvise(99, NORMAL)", posix_fadvise(99, 0, 0, POSIX_FADV_NORMAL));
    unlink(path);

    printf("sysconf(_SC_OPEN_MAX) > 1000: %d\n", sysconf(_SC_OPEN_MAX) > 1000);
    printf("sysconf(_SC_PHYS_PAGES) > 0: %d\n", sysconf(_SC_PHYS_PAGES) > 0);
    printf("sysconf(_SC_AVPHYS_PAGES) > 0: %d\n", sysconf(_SC_AVPHYS_PAGES) > 0);
    printf("sysconf(_SC_MINSIGSTKSZ) >= 2048: %d\n", sysconf(_SC_MINSIGSTKSZ) >= 2048);
    printf("sysconf(_SC_PAGESIZE) > 0: %d\n", sysconf(_SC_PAGESIZE) > 0);
    errno = 0;
    printf("sysconf(-5): %ld %s\n", sysconf(-5), errno_name(errno));
    printf("strerror(-1): %s\n", strerror(-1));
    printf("strerror(9999): %s\n", strerror(9999));
    return 0;
}
