/* A full disk (tests/mount-crash.test.js, on a small tmpfs):
 *   fill_disk DIR
 * makes DIR/spare (64 KiB), then appends 1,000-byte records to DIR/data until a write fails,
 * and prints what each step returned: the short write and the failing call's errno, a later
 * write, fsync, every earlier record read back intact, and, after DIR/spare is removed, that
 * writing goes on. The same program built for Linux gives the lines to match. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define RECORD 1000

static char path_in[512];
static const char *at(const char *dir, const char *name)
{
    snprintf(path_in, sizeof path_in, "%s/%s", dir, name);
    return path_in;
}

static void fill_record(char *rec, long i)
{
    memset(rec, 'A' + (int)(i % 26), RECORD);
    snprintf(rec, 16, "%ld:", i);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *dir = argv[1];
    char rec[RECORD], back[RECORD];
    int spare = open(at(dir, "spare"), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    memset(rec, 's', sizeof rec);
    for (int i = 0; i < 64 * 1024 / RECORD; i++)
        if (write(spare, rec, RECORD) != RECORD)
            return 1;
    close(spare);
    int fd = open(at(dir, "data"), O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0)
        return 1;
    long whole = 0, bytes = 0;
    ssize_t n;
    for (;;) {
        fill_record(rec, whole);
        n = write(fd, rec, RECORD);
        if (n != RECORD)
            break;
        whole++;
        bytes += RECORD;
    }
    int err = errno;
    if (n > 0) { /* a short write: what fitted; the next write says why */
        printf("short write of %zd bytes\n", n);
        bytes += n;
        n = write(fd, rec + n, (size_t)(RECORD - n));
        err = errno;
    }
    printf("records %ld, then write gave %zd, %s\n", whole, n, n < 0 ? strerror(err) : "no error");
    n = write(fd, "x", 1);
    printf("one more byte: %zd %s\n", n, n < 0 ? strerror(errno) : "");
    printf("fsync: %d\n", fsync(fd));
    printf("size: %ld (expected %ld)\n", (long)lseek(fd, 0, SEEK_END), bytes);
    long bad = 0;
    for (long i = 0; i < whole; i++) {
        fill_record(rec, i);
        if (pread(fd, back, RECORD, i * RECORD) != RECORD || memcmp(back, rec, RECORD) != 0)
            bad++;
    }
    printf("records read back intact: %ld of %ld\n", whole - bad, whole);
    printf("unlink spare: %d\n", unlink(at(dir, "spare")));
    fill_record(rec, whole);
    n = pwrite(fd, rec, RECORD, bytes);
    printf("write after space was freed: %zd\n", n);
    printf("close: %d\n", close(fd));
    printf("unlink data: %d\n", unlink(at(dir, "data")));
    return 0;
}
