/* The character devices of /dev compared with Linux: null, zero, full,
 * random and urandom (read, write, stat, lseek, O_TRUNC) and their entries in
 * a listing of /dev. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *err_name(void) { return errno == ENOSPC ? "ENOSPC" : strerror(errno); }

int main(void)
{
    char buf[64];
    int null = open("/dev/null", O_RDWR | O_TRUNC);
    printf("/dev/null: read %zd, write %zd, lseek %lld\n", read(null, buf, sizeof buf), write(null, "abc", 3),
           (long long)lseek(null, 100, SEEK_SET));
    close(null);

    int zero = open("/dev/zero", O_RDWR);
    memset(buf, 'x', sizeof buf);
    ssize_t n = read(zero, buf, sizeof buf);
    int zeros = 0;
    for (int i = 0; i < 64; i++)
        zeros += buf[i] == 0;
    printf("/dev/zero: read %zd (%d zero bytes), write %zd\n", n, zeros, write(zero, "abc", 3));
    close(zero);

    int full = open("/dev/full", O_RDWR);
    memset(buf, 'x', sizeof buf);
    n = read(full, buf, 8);
    errno = 0;
    ssize_t w = write(full, "abc", 3);
    printf("/dev/full: read %zd (first byte %d), write %zd %s\n", n, buf[0], w, err_name());
    FILE *f = fopen("/dev/full", "w");
    fputs("buffered", f);
    errno = 0;
    int rc = fflush(f);
    printf("fflush to /dev/full: %d %s\n", rc, err_name());
    fclose(f);

    const char *randoms[] = {"/dev/urandom", "/dev/random"};
    for (int i = 0; i < 2; i++) {
        int fd = open(randoms[i], O_RDONLY);
        unsigned char a[32] = {0}, b[32] = {0};
        ssize_t na = read(fd, a, sizeof a), nb = read(fd, b, sizeof b);
        printf("%s: read %zd + %zd, the two reads differ: %s\n", randoms[i], na, nb,
               memcmp(a, b, 32) ? "yes" : "no");
        close(fd);
    }

    const char *names[] = {"null", "zero", "full", "random", "urandom"};
    for (int i = 0; i < 5; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/%s", names[i]);
        struct stat st;
        stat(path, &st);
        printf("stat %s: character device %d, size %lld\n", path, S_ISCHR(st.st_mode), (long long)st.st_size);
    }

    DIR *dev = opendir("/dev");
    int seen = 0;
    struct dirent *e;
    while ((e = readdir(dev)) != NULL)
        for (int i = 0; i < 5; i++)
            if (strcmp(e->d_name, names[i]) == 0 && e->d_type == DT_CHR)
                seen |= 1 << i;
    closedir(dev);
    printf("listing /dev shows all five as DT_CHR: %s\n", seen == 31 ? "yes" : "no");
    errno = 0;
    printf("creating /dev/null anew with O_EXCL: %d %s\n",
           open("/dev/null", O_WRONLY | O_CREAT | O_EXCL, 0644),
           errno == EEXIST ? "EEXIST" : strerror(errno));
    return 0;
}
