// lseek on a stdout redirected to a regular file (the runner's "stdoutTo": "file"): Linux moves
// the fd's offset, which the shell that opened the file shares, and later writes go there.
// stderr is a pipe: ESPIPE. The file's final bytes are what is compared with the native run.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "posix_report.h"

static void put(const char *text)
{
    if (write(1, text, strlen(text)) != (ssize_t)strlen(text))
        perror("write");
}

int main(void)
{
    put("0123456789\n");
    off_t after_line = lseek(1, 0, SEEK_CUR);
    off_t patched = lseek(1, 2, SEEK_SET);
    put("ab"); // the line reads 01ab456789
    off_t after_patch = lseek(1, 0, SEEK_CUR);
    off_t end = lseek(1, 0, SEEK_END);
    printf("SEEK_CUR after the line %lld, SEEK_SET to %lld, after the patch %lld, SEEK_END %lld\n",
           (long long)after_line, (long long)patched, (long long)after_patch, (long long)end);
    fflush(stdout);
    report("lseek(1, -1, SEEK_SET)", lseek(1, -1, SEEK_SET));
    report("lseek(1, 0, 7)", lseek(1, 0, 7));
    report("lseek(2, 0, SEEK_CUR) (a pipe)", lseek(2, 0, SEEK_CUR));
    fflush(stdout);
    // stdio's own stream: ftell counts what is buffered; fseek flushes, then moves the fd
    printf("written through stdio\n");
    long told = ftell(stdout);
    off_t unbuffered_end = lseek(1, 0, SEEK_CUR);
    printf("ftell(stdout) counts the buffer: %s\n", told == unbuffered_end + 22 ? "yes" : "no");
    fseek(stdout, told - 6, SEEK_SET);
    printf("STDIO");
    fseek(stdout, 0, SEEK_END);
    printf("the end at %ld\n", ftell(stdout) - told);
    return 0;
}
