// Reads FILE (on a mount served by I/O workers) in 1 MiB preads, over and over, until a read
// fails: the test kills the I/O worker meanwhile (tests/mount.test.js, tests/opfs.test.js). The
// read must fail with EIO, not hang, and so must every later call to that worker.
//   ioworker_dies FILE [create]   (create: first writes FILE, 4 MiB)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *name(int e) { return e == EIO ? "EIO" : strerror(e); }

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    size_t size = 1 << 20;
    char *buf = malloc(size);
    if (argc > 2 && strcmp(argv[2], "create") == 0) {
        memset(buf, 7, size);
        int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        for (int i = 0; i < 4; i++) {
            if (out < 0 || write(out, buf, size) != (ssize_t)size) {
                printf("create: %s\n", name(errno));
                return 1;
            }
        }
        if (close(out) != 0) {
            printf("create: %s\n", name(errno));
            return 1;
        }
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        printf("open: %s\n", name(errno));
        return 1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)size) {
        printf("fstat: %s\n", name(errno));
        return 1;
    }
    long reads = 0;
    for (;;) {
        ssize_t n = pread(fd, buf, size, (off_t)(reads % (st.st_size / size)) * size);
        if (n < 0)
            break;
        if (++reads == 1) {
            printf("reading\n");
            fflush(stdout);
        }
        if (reads == 100000000) {
            printf("read: never failed\n");
            return 1;
        }
    }
    printf("read: %s\n", name(errno));
    printf("open after: %s\n", open(argv[1], O_RDONLY) < 0 ? name(errno) : "ok");
    printf("stat after: %s\n", stat(argv[1], &st) < 0 ? name(errno) : "ok");
    printf("close: %s\n", close(fd) < 0 ? name(errno) : "ok");
    printf("done\n");
    return 0;
}
