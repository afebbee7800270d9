/* Durability on an OPFS mount (tests/opfs.test.js):
 *   durable write DIR   writes DIR/synced (fsync), DIR/closed (close, no fsync) and DIR/pending
 *                       (small writes, neither), prints "written", then waits to be killed
 *   durable read DIR    prints each file's size and whether its bytes are the expected ones */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SYNCED_SIZE (3 * 1024 * 1024 + 123) /* some large writes, some small ones */

static unsigned char byte_at(int seed, long i)
{
    return (unsigned char)((i * 31 + seed * 7 + (i >> 10)) & 255);
}

static int write_file(const char *dir, const char *name, int seed, long size, int how)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        return -1;
    }
    static unsigned char buf[1 << 20];
    long at = 0;
    while (at < size) {
        long n = at < 2 * 1024 * 1024 ? (1 << 20) : 1000; /* 1 MiB writes, then small ones */
        if (n > size - at)
            n = size - at;
        for (long i = 0; i < n; i++)
            buf[i] = byte_at(seed, at + i);
        if (write(fd, buf, (size_t)n) != n) {
            perror("write");
            return -1;
        }
        at += n;
    }
    if (how == 1 && fsync(fd) != 0) {
        perror("fsync");
        return -1;
    }
    if (how == 2 && close(fd) != 0) {
        perror("close");
        return -1;
    }
    return 0;
}

static void check_file(const char *dir, const char *name, int seed, long size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("%s: missing\n", name);
        return;
    }
    struct stat st;
    fstat(fd, &st);
    unsigned char *buf = malloc((size_t)st.st_size + 1);
    long got = 0, n;
    while ((n = read(fd, buf + got, (size_t)(st.st_size - got) + 1)) > 0)
        got += n;
    long bad = 0;
    for (long i = 0; i < got; i++)
        bad += buf[i] != byte_at(seed, i);
    printf("%s: size %ld (expected %ld), %s\n", name, got, size,
           bad == 0 && got == size ? "intact"
           : bad                   ? "WRONG BYTES"
                                   : "short");
    close(fd);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *dir = argv[2];
    if (strcmp(argv[1], "write") == 0) {
        mkdir(dir, 0755);
        if (write_file(dir, "synced", 1, SYNCED_SIZE, 1) || write_file(dir, "closed", 2, 100000, 2) ||
            write_file(dir, "pending", 3, 5000, 0))
            return 1;
        printf("written\n");
        fflush(stdout);
        for (;;)
            sleep(1); /* killed here, with "synced" and "pending" still open */
    }
    check_file(dir, "synced", 1, SYNCED_SIZE);
    check_file(dir, "closed", 2, 100000);
    check_file(dir, "pending", 3, 5000);
    return 0;
}
