// fd queries on a mount's files, which Spindle answers from memory: posix_fadvise validates the fd,
// isatty / fopen's file-type check (fd_fdstat_get) sees a regular file or a directory.
// Usage: fd_queries MOUNT_DIR; prints one line per check and "failures N".
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void expect(const char *what, int ok)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    failures += !ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fd_queries MOUNT_DIR\n");
        return 2;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/queried", argv[1]);
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    expect("write", write(fd, "abc", 3) == 3);
    expect("posix_fadvise on a mount file is 0", posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL) == 0);
    expect("isatty is 0 with ENOTTY", isatty(fd) == 0 && errno == ENOTTY);
    FILE *f = fdopen(fd, "r+");
    expect("fdopen", f != NULL);
    char buf[4] = {0};
    rewind(f);
    expect("read back through stdio", fread(buf, 1, 3, f) == 3 && memcmp(buf, "abc", 3) == 0);
    fclose(f);
    expect("posix_fadvise on the closed fd is EBADF", posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL) == EBADF);
    int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
    DIR *d = fdopendir(dfd); // checks through fd_fdstat_get that the fd is a directory
    expect("fdopendir on the mount's root", d != NULL);
    if (d)
        closedir(d);
    unlink(path);
    printf("failures %d\n", failures);
    return failures != 0;
}
