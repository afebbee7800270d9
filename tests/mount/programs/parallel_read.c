/* Two threads reading two mounted files at once vs one thread reading one:
 *   parallel_read DIR MIB [PASSES]   (creates DIR/a and DIR/b of MIB MiB each;
 *   each reader reads its file PASSES times, default 1)
 * prints the MiB/s of each case and checks every byte read. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static size_t mib;
static int passes = 1;
static const size_t chunk = 1 << 20;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *reader(void *arg)
{
    const char *path = arg;
    char *buf = malloc(chunk);
    long bad = 0;
    for (int pass = 0; pass < passes; pass++) {
        int fd = open(path, O_RDONLY);
        bad += fd < 0;
        for (size_t i = 0; fd >= 0 && i < mib; i++) {
            if (read(fd, buf, chunk) != (ssize_t)chunk || buf[0] != (char)i ||
                buf[chunk - 1] != (char)(i + path[strlen(path) - 1]))
                bad++;
        }
        if (fd >= 0)
            close(fd);
    }
    free(buf);
    return (void *)bad;
}

static void make(const char *path)
{
    char *buf = malloc(chunk);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    for (size_t i = 0; i < mib; i++) {
        memset(buf, (char)i, chunk);
        buf[chunk - 1] = (char)(i + path[strlen(path) - 1]);
        write(fd, buf, chunk);
    }
    close(fd);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    mib = (size_t)atoi(argv[2]);
    if (argc > 3)
        passes = atoi(argv[3]);
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/a", argv[1]);
    snprintf(b, sizeof b, "%s/b", argv[1]);
    make(a);
    make(b);
    reader(a); /* warm the host's page cache */
    reader(b);
    double t0 = now();
    long bad = (long)reader(a);
    double one = now() - t0;
    pthread_t t1, t2;
    t0 = now();
    pthread_create(&t1, NULL, reader, a);
    pthread_create(&t2, NULL, reader, b);
    void *r1, *r2;
    pthread_join(t1, &r1);
    pthread_join(t2, &r2);
    double two = now() - t0;
    bad += (long)r1 + (long)r2;
    double total = (double)mib * passes;
    printf("one thread: %.0f MiB/s, two threads on two files: %.0f MiB/s (%.2fx), bad reads %ld\n",
           total / one, 2.0 * total / two, (2.0 * total / two) / (total / one), bad);
    return bad != 0;
}
