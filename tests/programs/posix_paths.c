// Paths as Linux resolves them: "" names nothing (ENOENT for every call taking a path),
// AT_EMPTY_PATH means the fd itself, rmdir of the root is EBUSY and of "." EINVAL, an access
// mode of 0 is O_RDONLY. Compared with the native build; also run with --fs=js.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

int main(void)
{
    printf("errno at main: %d\n", errno);
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/posix_paths.%d", (int)getpid());
    if (mkdir(dir, 0700) < 0 || chdir(dir) < 0) {
        perror("scratch directory");
        return 1;
    }
    int fd = open("file", O_CREAT | O_WRONLY, 0644);
    write(fd, "12345", 5);
    close(fd);

    struct stat st;
    report("open(\"\", O_RDONLY)", open("", O_RDONLY));
    report("open(\"\", O_CREAT|O_WRONLY)", open("", O_CREAT | O_WRONLY, 0644));
    report("openat(AT_FDCWD, \"\")", openat(AT_FDCWD, "", O_RDONLY));
    report("stat(\"\")", stat("", &st));
    report("lstat(\"\")", lstat("", &st));
    report("access(\"\", F_OK)", access("", F_OK));
    report("chdir(\"\")", chdir(""));
    DIR *d = opendir("");
    report("opendir(\"\")", d ? 0 : -1);
    FILE *f = fopen("", "r");
    report("fopen(\"\", \"r\")", f ? 0 : -1);
    report("unlink(\"\")", unlink(""));
    report("rmdir(\"\")", rmdir(""));
    report("mkdir(\"\")", mkdir("", 0755));
    report("rename(\"\", \"x\")", rename("", "x"));
    report("rename(\"file\", \"\")", rename("file", ""));
    report("truncate(\"\", 0)", truncate("", 0));
    report("link(\"file\", \"\")", link("file", ""));
    report("symlink(\"file\", \"\")", symlink("file", ""));
    char buf[16];
    report("readlink(\"\")", readlink("", buf, sizeof buf));

    fd = open("file", O_RDONLY);
    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    report("fstatat(fd, \"\", 0)", fstatat(fd, "", &st, 0));
    report("fstatat(fd, \"\", AT_EMPTY_PATH)", fstatat(fd, "", &st, AT_EMPTY_PATH));
    printf("  size %lld regular %d\n", (long long)st.st_size, S_ISREG(st.st_mode));
    report("fstatat(dfd, \"\", AT_EMPTY_PATH)", fstatat(dfd, "", &st, AT_EMPTY_PATH));
    printf("  directory %d\n", S_ISDIR(st.st_mode));
    report("fstatat(dfd, \"file\", AT_EMPTY_PATH)", fstatat(dfd, "file", &st, AT_EMPTY_PATH));
    printf("  size %lld\n", (long long)st.st_size);
    report("fstatat(AT_FDCWD, \"\", AT_EMPTY_PATH)", fstatat(AT_FDCWD, "", &st, AT_EMPTY_PATH));
    printf("  directory %d\n", S_ISDIR(st.st_mode));
    report("fstatat(99, \"\", AT_EMPTY_PATH)", fstatat(99, "", &st, AT_EMPTY_PATH));
    report("openat(dfd, \"\")", openat(dfd, "", O_RDONLY));
    close(fd);
    close(dfd);

    report("rmdir(\"/\")", rmdir("/"));
    report("rmdir(\"//\")", rmdir("//"));
    report("rmdir(\".\")", rmdir("."));
    report("mkdir(\"sub\")", mkdir("sub", 0755));
    report("rmdir(\"sub/.\")", rmdir("sub/."));
    report("rmdir(\"sub/\")", rmdir("sub/"));

    report("open(\"file\", 0)", fd = open("file", 0));
    report("read 5", read(fd, buf, 5));
    close(fd);
    report("open(\"file\", O_CREAT)", fd = open("file", O_CREAT, 0644));
    close(fd);
    report("open(\"new\", O_CREAT)", fd = open("new", O_CREAT, 0644));
    close(fd);
    report("mkdir(\"d\")", mkdir("d", 0755));
    report("open(\"d/\", O_CREAT)", open("d/", O_CREAT, 0644));
    report("open(\"d\", O_CREAT)", open("d", O_CREAT, 0644));
    report("open(\"d\", 0)", fd = open("d", 0));
    close(fd);

    unlink("file");
    unlink("new");
    rmdir("d");
    chdir("/");
    report("cleanup", rmdir(dir));
    return 0;
}
