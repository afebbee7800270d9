// open of /dev/stdout, /proc/self/fd/1 and /dev/stdin when they are regular files (the runner's
// "stdinFrom": "file", "stdoutTo": "file"): Linux opens the file anew, so the new fd has an
// offset of its own from 0 (O_APPEND: the file's end) while fds 0 and 1 keep theirs, and O_TRUNC
// empties the file; ftruncate of fd 1 sizes it. The file's final bytes, with the holes the
// truncation leaves before fd 1's offset and ftruncate after it, are what is compared with the
// native run.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

static void put(int fd, const char *text)
{
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        perror("write");
}

static void show(const char *what, long long rc, const char *text)
{
    printf("%-40s %lld %s%s\n", what, rc, rc < 0 ? errno_name(errno) : "", text ? text : "");
    fflush(stdout); // in the file now, where fd 1's offset is
    errno = 0;
}

static long long size_of(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? (long long)st.st_size : -1;
}

int main(void)
{
    put(1, "0123456789\n");
    int fresh = open("/dev/stdout", O_WRONLY | O_TRUNC);
    long long emptied = size_of(1);
    put(fresh, "FRESH\n"); // at 0; fd 1 goes on at 11, past a hole of 5 bytes
    show("the size after O_TRUNC", emptied, NULL);
    int out = open("/dev/stdout", O_WRONLY);
    put(out, "ab"); // at its own offset 0: abESH
    show("lseek(/dev/stdout, 0, SEEK_CUR)", lseek(out, 0, SEEK_CUR), NULL);
    show("lseek(/dev/stdout, 0, SEEK_END) is the size", lseek(out, 0, SEEK_END) == size_of(1), NULL);
    show("lseek(/dev/stdout, -1, SEEK_SET)", lseek(out, -1, SEEK_SET), NULL);
    lseek(out, 3, SEEK_SET);
    put(out, "CD"); // abECD
    int tail = open("/proc/self/fd/1", O_WRONLY | O_APPEND);
    put(tail, "appended\n");
    show("O_APPEND's offset is the size", lseek(tail, 0, SEEK_CUR) == size_of(1), NULL);

    char buf[16] = {0};
    show("read(0, 6)", read(0, buf, 6), buf);
    int in = open("/dev/stdin", O_RDONLY);
    memset(buf, 0, sizeof buf);
    show("read(/dev/stdin, 5) from its own 0", read(in, buf, 5), buf);
    memset(buf, 0, sizeof buf);
    show("read(0, 4) goes on from fd 0's", read(0, buf, 4), buf);
    show("lseek(/dev/stdin, 0, SEEK_CUR)", lseek(in, 0, SEEK_CUR), NULL);

    show("ftruncate(2) (a pipe)", ftruncate(2, 0), NULL);
    long long before = size_of(1);
    int rc = ftruncate(1, before + 100); // the lines below fill part of what it adds
    long long grew = size_of(1) - before;
    show("ftruncate(1, size + 100)", rc, NULL);
    show("the size grew by", grew, NULL);
    close(in);
    close(tail);
    close(out);
    close(fresh);
    return 0;
}
