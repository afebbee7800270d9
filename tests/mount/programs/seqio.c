/* Sequential I/O in 1 MiB calls: seqio FILE MIB [ROUNDS]
 * writes MIB MiB (then close), reads them back; prints MiB/s of each, per round. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int mib = atoi(argv[2]), rounds = argc > 3 ? atoi(argv[3]) : 1;
    size_t chunk = 1 << 20;
    char *buf = malloc(chunk);
    memset(buf, 'x', chunk);
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        int fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0644);
        for (int i = 0; i < mib; i++)
            if (write(fd, buf, chunk) != (ssize_t)chunk)
                return 1;
        close(fd);
        double w = now() - t0;
        t0 = now();
        fd = open(argv[1], O_RDONLY);
        for (int i = 0; i < mib; i++)
            if (read(fd, buf, chunk) != (ssize_t)chunk)
                return 1;
        close(fd);
        double rd = now() - t0;
        printf("write %.0f MiB/s read %.0f MiB/s\n", mib / w, mib / rd);
    }
    return 0;
}
