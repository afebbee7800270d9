/* Path calls on a mounted host directory against the same calls natively (docs/MOUNTS.md,
 * section 6): argv[1] is the directory to work in (a mount point such as /data under
 * `spindle run --mount=/data=DIR`, or DIR itself natively). It makes its files there, measures
 * and removes them; one `RESULT {json}` line:
 *   stat_us   one stat() of a file two levels deep (a/b/file), mean of STATS calls
 *   orc_us    open + 4 KiB read + close of that file, mean of OPENS rounds
 *   write_us  one 1 KiB write() appending to a fresh file (WRITES of them, 20 MiB), mean
 *   walk_ms   a readdir + stat walk of WALK_DIRS x WALK_FILES files (opendir, readdir, stat of each
 *             entry by its path, as `find -ls` or `du` do), best of WALKS walks */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STATS 20000
#define OPENS 10000
#define WRITES 20480
#define WALK_DIRS 20
#define WALK_FILES 100
#define WALKS 5

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "mount_calls: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void write_file(const char *path, size_t size)
{
    static char bytes[4096];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, bytes, size) != (ssize_t)size || close(fd) != 0)
        die(path);
}

static void make_tree(const char *base)
{
    char path[512];
    snprintf(path, sizeof path, "%s/a", base);
    if (mkdir(path, 0755) != 0)
        die(path);
    snprintf(path, sizeof path, "%s/a/b", base);
    if (mkdir(path, 0755) != 0)
        die(path);
    snprintf(path, sizeof path, "%s/a/b/file", base);
    write_file(path, 4096);
    snprintf(path, sizeof path, "%s/walk", base);
    if (mkdir(path, 0755) != 0)
        die(path);
    for (int d = 0; d < WALK_DIRS; d++) {
        snprintf(path, sizeof path, "%s/walk/d%02d", base, d);
        if (mkdir(path, 0755) != 0)
            die(path);
        for (int f = 0; f < WALK_FILES; f++) {
            snprintf(path, sizeof path, "%s/walk/d%02d/file-%03d", base, d, f);
            write_file(path, 100);
        }
    }
}

static void remove_tree(const char *base)
{
    char path[512];
    for (int d = 0; d < WALK_DIRS; d++) {
        for (int f = 0; f < WALK_FILES; f++) {
            snprintf(path, sizeof path, "%s/walk/d%02d/file-%03d", base, d, f);
            unlink(path);
        }
        snprintf(path, sizeof path, "%s/walk/d%02d", base, d);
        rmdir(path);
    }
    snprintf(path, sizeof path, "%s/walk", base);
    rmdir(path);
    snprintf(path, sizeof path, "%s/a/b/file", base);
    unlink(path);
    snprintf(path, sizeof path, "%s/a/b", base);
    rmdir(path);
    snprintf(path, sizeof path, "%s/a", base);
    rmdir(path);
}

/* Lists dir and stats each entry by its path, entering directories; returns the files seen. */
static long walk(const char *dir, long long *bytes)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        die(dir);
    long files = 0;
    char path[512];
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            die(path);
        if (S_ISDIR(st.st_mode)) {
            files += walk(path, bytes);
        } else {
            files++;
            *bytes += st.st_size;
        }
    }
    closedir(d);
    return files;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mount_calls DIR\n");
        return 2;
    }
    char base[400];
    snprintf(base, sizeof base, "%s/mount-calls-%d", argv[1], (int)getpid());
    if (mkdir(base, 0755) != 0)
        die(base);
    make_tree(base);
    char file[512];
    snprintf(file, sizeof file, "%s/a/b/file", base);
    long long errors = 0;

    struct stat st;
    double start = now_seconds();
    for (int i = 0; i < STATS; i++)
        errors += stat(file, &st) != 0 || st.st_size != 4096;
    double stat_us = (now_seconds() - start) / STATS * 1e6;

    char buf[4096];
    start = now_seconds();
    for (int i = 0; i < OPENS; i++) {
        int fd = open(file, O_RDONLY);
        errors += fd < 0 || read(fd, buf, sizeof buf) != (ssize_t)sizeof buf;
        close(fd);
    }
    double orc_us = (now_seconds() - start) / OPENS * 1e6;

    char log[512];
    snprintf(log, sizeof log, "%s/log", base);
    int wfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (wfd < 0)
        die(log);
    char kib[1024];
    memset(kib, 'w', sizeof kib);
    start = now_seconds();
    for (int i = 0; i < WRITES; i++)
        errors += write(wfd, kib, sizeof kib) != (ssize_t)sizeof kib;
    double write_us = (now_seconds() - start) / WRITES * 1e6;
    errors += close(wfd) != 0;
    errors += stat(log, &st) != 0 || st.st_size != (off_t)WRITES * (off_t)sizeof kib;
    unlink(log);

    char top[512];
    snprintf(top, sizeof top, "%s/walk", base);
    double walk_ms = 1e9;
    for (int i = 0; i < WALKS; i++) {
        long long bytes = 0;
        start = now_seconds();
        long files = walk(top, &bytes);
        double ms = (now_seconds() - start) * 1e3;
        errors += files != WALK_DIRS * WALK_FILES || bytes != 100LL * files;
        if (ms < walk_ms)
            walk_ms = ms;
    }

    remove_tree(base);
    if (rmdir(base) != 0)
        die(base);
    printf("RESULT "
           "{\"bench\":\"mount_calls\",\"stat_us\":%.3f,\"orc_us\":%.3f,\"write_us\":%.3f,\"walk_ms\":%.3f,"
           "\"walk_files\":%d,\"errors\":%lld}\n",
           stat_us, orc_us, write_us, walk_ms, WALK_DIRS * WALK_FILES, errors);
    return errors != 0;
}
