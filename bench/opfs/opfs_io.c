/* Spindle on an OPFS mount: the same cases as the raw ceilings (bench/opfs/raw-opfs.js), through
 * plain POSIX calls on a mounted directory. Prints one RESULT line (JSON; MiB/s, files/s).
 *
 *   opfs_io bench DIR MIB        sequential write (4 KiB and 1 MiB calls, then fsync) and read (4
 *                                passes) of MIB MiB, small files, 1 thread reading 1 file vs 2 threads 2 files
 *   opfs_io parallel DIR MIB     only the last case, checking every byte read (for tests)
 *   opfs_io small DIR COUNT [BYTES]  only the small files case: COUNT new files (O_EXCL) of BYTES
 *                                (default 1024)
 *   opfs_io meta DIR COUNT       metadata calls and opens: ms per stat and per unlink of COUNT
 *                                1 KiB files, and ms to read 64 files of 1 MiB each opened O_RDWR
 *                                (and O_RDONLY): open, read fully in 1 MiB calls, close
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024 * 1024)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *path)
{
    printf("FAIL %s %s: %s\n", what, path, strerror(errno));
    fflush(stdout);
    exit(1);
}

/* Byte i of file `seed`: a pattern that differs per file and per position. */
static inline unsigned char pattern(int seed, int64_t i)
{
    return (unsigned char)((i * 7 + (i >> 12) * 13 + seed * 101) & 255);
}

static void fill(unsigned char *buf, size_t n, int seed, int64_t at)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern(seed, at + (int64_t)i);
}

/* Writes `mib` MiB in `chunk`-byte writes, fsyncs, closes; returns MiB/s. */
static double seq_write(const char *path, int mib, size_t chunk, int seed)
{
    unsigned char *buf = malloc(chunk);
    fill(buf, chunk, seed, 0);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("open", path);
    int64_t total = (int64_t)mib * MiB;
    double t = now();
    for (int64_t at = 0; at < total; at += chunk)
        if (write(fd, buf, chunk) != (ssize_t)chunk)
            die("write", path);
    if (fsync(fd) != 0)
        die("fsync", path);
    if (close(fd) != 0)
        die("close", path);
    t = now() - t;
    free(buf);
    return mib / t;
}

/* Reads the file `passes` times over (one pass at page-cache speed is only a few ms); MiB/s. */
static double seq_read(const char *path, size_t chunk, int passes)
{
    unsigned char *buf = malloc(chunk);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("open", path);
    int64_t total = 0;
    double t = now();
    ssize_t n = 0;
    for (int p = 0; p < passes && n >= 0; p++) {
        lseek(fd, 0, SEEK_SET);
        while ((n = read(fd, buf, chunk)) > 0)
            total += n;
    }
    t = now() - t;
    if (n < 0)
        die("read", path);
    close(fd);
    free(buf);
    return (double)total / MiB / t;
}

/* Writes a file of `mib` MiB with the file's own pattern (for the readers). */
static void make_file(const char *path, int mib, int seed)
{
    unsigned char *buf = malloc(MiB);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("open", path);
    for (int i = 0; i < mib; i++) {
        fill(buf, MiB, seed, (int64_t)i * MiB);
        if (write(fd, buf, MiB) != MiB)
            die("write", path);
    }
    if (close(fd) != 0)
        die("close", path);
    free(buf);
}

struct reader {
    const char *path;
    int seed;
    int passes;
    int check;
    int64_t bytes;
    int64_t bad;
    double start, end;
};

static pthread_barrier_t start_line;

static void *read_file(void *arg)
{
    struct reader *r = arg;
    unsigned char *buf = malloc(MiB);
    int fd = open(r->path, O_RDONLY);
    if (fd < 0)
        die("open", r->path);
    pthread_barrier_wait(&start_line);
    r->start = now();
    for (int p = 0; p < r->passes; p++) {
        int64_t at = 0;
        ssize_t n;
        while ((n = pread(fd, buf, MiB, at)) > 0) {
            if (r->check)
                for (ssize_t i = 0; i < n; i++)
                    r->bad += buf[i] != pattern(r->seed, at + i);
            at += n;
            r->bytes += n;
        }
        if (n < 0)
            die("pread", r->path);
    }
    r->end = now();
    close(fd);
    free(buf);
    return NULL;
}

/* MiB/s of `count` readers started together (aggregate, over the whole span). */
static double read_together(struct reader *rs, int count)
{
    pthread_t t[2];
    pthread_barrier_init(&start_line, NULL, (unsigned)count);
    for (int i = 0; i < count; i++)
        pthread_create(&t[i], NULL, read_file, &rs[i]);
    for (int i = 0; i < count; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start_line);
    double start = rs[0].start, end = rs[0].end;
    int64_t bytes = 0;
    for (int i = 0; i < count; i++) {
        if (rs[i].start < start)
            start = rs[i].start;
        if (rs[i].end > end)
            end = rs[i].end;
        bytes += rs[i].bytes;
    }
    return (double)bytes / MiB / (end - start);
}

static void parallel(const char *dir, int mib, int passes, int check, double *one, double *two, int64_t *bad)
{
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/par-a.bin", dir);
    snprintf(b, sizeof b, "%s/par-b.bin", dir);
    make_file(a, mib, 1);
    make_file(b, mib, 2);
    struct reader single[1] = {{a, 1, passes, check, 0, 0, 0, 0}};
    *one = read_together(single, 1);
    struct reader pair[2] = {{a, 1, passes, check, 0, 0, 0, 0}, {b, 2, passes, check, 0, 0, 0, 0}};
    *two = read_together(pair, 2);
    *bad = single[0].bad + pair[0].bad + pair[1].bad;
    if (pair[0].bytes != (int64_t)mib * MiB * passes || pair[1].bytes != (int64_t)mib * MiB * passes)
        *bad += 1;
    unlink(a);
    unlink(b);
}

/* Files per second creating `count` files in DIR/small (open with O_CREAT | `flags`, a write of
 * `size` <= 1024 bytes, none for 0, close); then removes them. */
static double small_files(const char *dir, int count, int size, int flags)
{
    char small[512], path[512];
    snprintf(small, sizeof small, "%s/small", dir);
    mkdir(small, 0755);
    static unsigned char kib[1024];
    fill(kib, sizeof kib, 4, 0);
    double t = now();
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/f%d", small, i);
        int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
        if (fd < 0 || (size > 0 && write(fd, kib, size) != size) || close(fd) != 0)
            die("small file", path);
    }
    double files = count / (now() - t);
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/f%d", small, i);
        unlink(path);
    }
    rmdir(small);
    return files;
}

/* ms per call of `call` on each of `count` paths DIR/m<i>. */
static double per_path(const char *dir, int count, int (*call)(const char *path), const char *what)
{
    char path[512];
    double t = now();
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/m%d", dir, i);
        if (call(path) != 0)
            die(what, path);
    }
    return (now() - t) * 1000 / count;
}

static int stat_one(const char *path)
{
    struct stat st;
    return stat(path, &st) != 0 || st.st_size != 1024 ? -1 : 0;
}

static int make_small(const char *path)
{
    static unsigned char kib[1024];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, kib, sizeof kib) != (ssize_t)sizeof kib)
        return -1;
    return close(fd);
}

/* ms to open `count` MiB files DIR/big<i> with `flags`, read each fully in 1 MiB calls, close. */
static double read_files(const char *dir, int count, int flags)
{
    char path[512];
    unsigned char *buf = malloc(MiB);
    double t = now();
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/big%d", dir, i);
        int fd = open(path, flags);
        if (fd < 0)
            die("open", path);
        ssize_t n, total = 0;
        while ((n = read(fd, buf, MiB)) > 0)
            total += n;
        if (n < 0 || total != MiB || close(fd) != 0)
            die("read", path);
    }
    t = (now() - t) * 1000;
    free(buf);
    return t;
}

static void meta(const char *top, int count)
{
    char dir[512], path[512];
    snprintf(dir, sizeof dir, "%s/meta", top);
    mkdir(dir, 0755);
    per_path(dir, count, make_small, "create");
    double stat_ms = per_path(dir, count, stat_one, "stat");
    double unlink_ms = per_path(dir, count, unlink, "unlink");
    int files = 64;
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/big%d", dir, i);
        make_file(path, 1, i);
    }
    double rdwr_ms = read_files(dir, files, O_RDWR);
    double rdonly_ms = read_files(dir, files, O_RDONLY);
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/big%d", dir, i);
        unlink(path);
    }
    rmdir(dir);
    printf("RESULT {\"files\":%d,\"stat_ms\":%.4f,\"unlink_ms\":%.4f,\"read_64x1m_rdwr_ms\":%.1f,"
           "\"read_64x1m_rdonly_ms\":%.1f}\n",
           count, stat_ms, unlink_ms, rdwr_ms, rdonly_ms);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: opfs_io bench|parallel DIR MIB | opfs_io small|meta DIR COUNT\n");
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    int mib = atoi(argv[3]);
    char path[512];
    if (strcmp(mode, "parallel") == 0) {
        double one, two;
        int64_t bad;
        parallel(dir, mib, 2, 1, &one, &two, &bad);
        printf("parallel: %s (%lld bad bytes)\n", bad == 0 ? "ok" : "WRONG BYTES", (long long)bad);
        printf("RESULT {\"read_1thread\":%.1f,\"read_2threads\":%.1f,\"read_2threads_speedup\":%.2f}\n", one,
               two, two / one);
        return bad == 0 ? 0 : 1;
    }
    if (strcmp(mode, "meta") == 0) {
        meta(dir, mib > 0 ? mib : 200);
        return 0;
    }
    if (strcmp(mode, "small") == 0) {
        int count = atoi(argv[3]), size = argc > 4 ? atoi(argv[4]) : 1024;
        if (size < 0 || size > 1024)
            size = 1024;
        double files = small_files(dir, count, size, O_EXCL);
        printf("RESULT {\"files\":%d,\"bytes\":%d,\"seconds\":%.2f,\"small_files\":%.1f}\n", count, size,
               count / files, files);
        return 0;
    }
    snprintf(path, sizeof path, "%s/seq.bin", dir);
    double w4 = seq_write(path, mib, 4096, 3);
    double r4 = seq_read(path, 4096, 4);
    double w1 = seq_write(path, mib, MiB, 3);
    double r1 = seq_read(path, MiB, 4);
    unlink(path);
    double files = small_files(dir, 1000, 1024, O_TRUNC);
    double one, two;
    int64_t bad;
    int passes = mib >= 1024 ? 1 : 1024 / mib;
    parallel(dir, mib, passes, 0, &one, &two, &bad);
    printf(
        "RESULT {\"seq_write_4k\":%.2f,\"seq_read_4k\":%.2f,\"seq_write_1m\":%.2f,\"seq_read_1m\":%.2f,"
        "\"small_files\":%.1f,\"read_1thread\":%.1f,\"read_2threads\":%.1f,\"read_2threads_speedup\":%.2f}\n",
        w4, r4, w1, r1, files, one, two, two / one);
    return 0;
}
