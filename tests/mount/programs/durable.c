/* Durability on a mount (tests/mount.test.js kills the process after "ready"):
 *   durable fsync|close|nosync|exit FILE
 * writes 3000 small records to FILE, then fsync (stays open) / close / nothing, says
 * "ready" and waits to be killed; "exit" returns from main without closing. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int fd = open(argv[2], O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    char rec[32];
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(rec, sizeof rec, "record %05d\n", i);
        if (write(fd, rec, (size_t)n) != n)
            return 1;
    }
    if (strcmp(argv[1], "fsync") == 0 && fsync(fd) != 0)
        return 1;
    if (strcmp(argv[1], "close") == 0 && close(fd) != 0)
        return 1;
    if (strcmp(argv[1], "exit") == 0)
        return 0;
    printf("ready\n");
    fflush(stdout);
    for (;;)
        sleep(100);
}
