// lseek through duplicates of a stdout redirected to a regular file (the runner's "stdoutTo":
// "file"): dup, fcntl(F_DUPFD) and dup2 of a duplicate share fd 1's open file description on
// Linux, so a seek through any of them moves where the next write through any lands. The
// file's final bytes are what is compared with the native run.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "posix_report.h"

static void put(int fd, const char *text)
{
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        perror("write");
}

int main(void)
{
    put(1, "0123456789\n");
    int copy = dup(1);
    int high = fcntl(1, F_DUPFD, 20);
    int low = dup2(copy, 7);
    off_t after_line = lseek(copy, 0, SEEK_CUR);
    off_t patched = lseek(high, 2, SEEK_SET);
    put(1, "ab"); // the line reads 01ab456789
    off_t after_patch = lseek(low, 0, SEEK_CUR);
    put(copy, "CD"); // and now 01abCD6789
    off_t after_copy = lseek(1, 0, SEEK_CUR);
    off_t end = lseek(high, 0, SEEK_END);
    printf("dup(1) SEEK_CUR after the line %lld, F_DUPFD SEEK_SET to %lld, dup2 of the dup after fd 1's "
           "write %lld, "
           "fd 1 after the dup's write %lld, SEEK_END %lld\n",
           (long long)after_line, (long long)patched, (long long)after_patch, (long long)after_copy,
           (long long)end);
    fflush(stdout);
    report("lseek(dup(1), -1, SEEK_SET)", lseek(copy, -1, SEEK_SET));
    report("lseek(dup(2), 0, SEEK_CUR) (a pipe)", lseek(dup(2), 0, SEEK_CUR));
    close(low);
    close(high);
    close(copy);
    return 0;
}
