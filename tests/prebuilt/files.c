// Built with `spindle cc --bare` (no Spindle runtime): POSIX file calls on a directory that
// `spindle run --mount=/data=HOSTDIR` preopens. tests/prebuilt.test.js checks what it prints.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what)
{
    printf("c %s failed: %s\n", what, strerror(errno));
    return 1;
}

static const char *outcome(const char *path)
{
    static char text[64];
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        close(fd);
        return "read";
    }
    snprintf(text, sizeof text, "%s", strerror(errno));
    return text;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    char path[512], other[512], text[64] = {0};
    snprintf(path, sizeof path, "%s/csub", argv[1]);
    if (mkdir(path, 0755))
        return fail("mkdir");
    snprintf(path, sizeof path, "%s/csub/a.txt", argv[1]);
    FILE *f = fopen(path, "w");
    if (!f || fputs("hello from spindle cc --bare", f) < 0 || fclose(f))
        return fail("write");
    int fd = open(path, O_RDONLY);
    if (fd < 0 || lseek(fd, 6, SEEK_SET) != 6 || read(fd, text, sizeof text - 1) < 0)
        return fail("read");
    close(fd);
    snprintf(other, sizeof other, "%s/csub/b.txt", argv[1]);
    if (rename(path, other))
        return fail("rename");
    struct stat st;
    if (stat(other, &st))
        return fail("stat");
    snprintf(path, sizeof path, "%s/csub", argv[1]);
    DIR *dir = opendir(path);
    if (!dir)
        return fail("opendir");
    int entries = 0;
    for (struct dirent *e; (e = readdir(dir));)
        entries += strcmp(e->d_name, "b.txt") == 0;
    closedir(dir);
    if (unlink(other) || rmdir(path))
        return fail("remove");
    printf("c read=\"%s\" b.txt_listed=%d size=%lld gone=%d\n", text, entries, (long long)st.st_size,
           stat(path, &st) != 0 && errno == ENOENT);
    snprintf(path, sizeof path, "%s/../secret.txt", argv[1]);
    snprintf(other, sizeof other, "%s/link", argv[1]);
    printf("c escape dotdot=%s", outcome(path));
    printf(" symlink=%s\n", outcome(other));
    return 0;
}
