// The body of the posix_stdio_* programs (issue 22, item 3): fds 0-2 as Linux has them, whatever
// the runner connected them to (each program's .json: stdin from a pipe, a file or /dev/null,
// stdout to a pipe or a file, stderr a pipe or /dev/null). fstat's type, a file's size and
// mtime, lseek on a stdin that is a file (and on pipes and /dev/null, through dups too),
// /proc/self/fd's names, posix_fadvise on pipes, and dup/dup2/F_DUPFD of fds 0-2: "save stderr,
// send it into a pipe, restore it".
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

static const char *kind(mode_t mode)
{
    return S_ISREG(mode)    ? "regular file"
           : S_ISFIFO(mode) ? "pipe"
           : S_ISCHR(mode)  ? "character device"
                            : "other";
}

// /proc/self/fd/N as Linux names it, with what differs between runs left out: a pipe's inode
// number and a file's path (the runner makes a folder per run)
static void print_name(int fd)
{
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, text, sizeof text - 1);
    if (n < 0) {
        printf("  name: %s\n", errno_name(errno));
        return;
    }
    text[n] = '\0';
    if (strncmp(text, "pipe:[", 6) == 0)
        printf("  name: pipe:[N]\n");
    else if (strcmp(text, "/dev/null") == 0 || strncmp(text, "/dev/pts/", 9) == 0)
        printf("  name: %s\n", text);
    else // a redirected file: the host's path, whose folder and name differ from run to run
        printf("  name: %s\n", text[0] == '/' ? "an absolute path" : text);
}

static void describe(const char *what, int fd)
{
    fflush(stdout); // a stdout that is a file has the size of what was written
    struct stat st;
    if (fstat(fd, &st) != 0) {
        printf("%s: fstat %s\n", what, errno_name(errno));
        return;
    }
    printf("%s: %s", what, kind(st.st_mode));
    if (S_ISREG(st.st_mode))
        printf(", size %lld", (long long)st.st_size);
    if (S_ISREG(st.st_mode) && fd != 1 && fd != 2) // stdin's file is dated by the runner; outputs change
        printf(", mtime %lld", (long long)st.st_mtime);
    printf("\n");
    print_name(fd);
}

static void read_some(const char *what, int fd, size_t n)
{
    char buf[64] = {0};
    ssize_t got = read(fd, buf, n < sizeof buf ? n : sizeof buf - 1);
    printf("%-36s %zd \"%s\"\n", what, got, got > 0 ? buf : "");
}

static void seek_stdin(void)
{
    off_t to = lseek(0, 6, SEEK_SET);
    report("lseek(0, 6, SEEK_SET)", to);
    if (to < 0)
        return;
    read_some("read(0, 5) after it", 0, 5);
    printf("%-36s %lld\n", "lseek(0, 0, SEEK_CUR)", (long long)lseek(0, 0, SEEK_CUR));
    printf("%-36s %lld\n", "lseek(0, -3, SEEK_END)", (long long)lseek(0, -3, SEEK_END));
    read_some("read(0, 10) there", 0, 10);
    report("lseek(0, -1, SEEK_SET)", lseek(0, -1, SEEK_SET));
    lseek(0, 0, SEEK_SET);
    int copy = fcntl(0, F_DUPFD, 10); // 10 may be taken by what the test's parent left open
    printf("%-36s %s\n", "fcntl(0, F_DUPFD, 10) >= 10", copy >= 10 ? "yes" : "no");
    read_some("read(copy, 4) shares the offset", copy, 4);
    read_some("read(0, 4) goes on from there", 0, 4);
    describe("the copy", copy);
    close(copy);
}

// stdio that is no regular file: a pipe gives ESPIPE, /dev/null 0 wherever asked, also
// through a duplicate
static void seek_unseekable(int fd)
{
    static const struct {
        const char *call;
        off_t offset;
        int whence, through_dup;
    } seeks[] = {{"lseek(%d, 0, SEEK_CUR)", 0, SEEK_CUR, 0},
                 {"lseek(%d, 5, SEEK_SET)", 5, SEEK_SET, 0},
                 {"lseek(dup(%d), 0, SEEK_END)", 0, SEEK_END, 1}};
    for (size_t i = 0; i < sizeof seeks / sizeof seeks[0]; i++) {
        int target = seeks[i].through_dup ? dup(fd) : fd;
        off_t to = lseek(target, seeks[i].offset, seeks[i].whence);
        char what[64];
        snprintf(what, sizeof what, seeks[i].call, fd);
        printf("%-36s %lld %s\n", what, (long long)to, to < 0 ? errno_name(errno) : "");
        if (target != fd)
            close(target);
    }
}

static void redirect_stderr(void)
{
    int saved = dup(2);
    printf("%-36s %d\n", "dup(2)", saved);
    int p[2];
    report("pipe", pipe(p));
    report_errnum("posix_fadvise(pipe)", posix_fadvise(p[0], 0, 0, POSIX_FADV_SEQUENTIAL));
    printf("%-36s %d\n", "dup2(pipe's write end, 2)", dup2(p[1], 2));
    describe("fd 2 now", 2);
    const char note[] = "into the pipe\n";
    report("write(2)", write(2, note, sizeof note - 1));
    printf("%-36s %d\n", "dup2(saved, 2)", dup2(saved, 2));
    close(saved);
    close(p[1]);
    read_some("the pipe got", p[0], sizeof note - 1);
    const char back[] = "stderr restored\n";
    report("write(2) after the restore", write(2, back, sizeof back - 1));
    describe("fd 2 again", 2);
    int out = dup(1);
    fflush(stdout);
    const char via[] = "written through dup(1)\n";
    report("write(dup(1))", write(out, via, sizeof via - 1));
    report("dup3(0, 1, O_CLOEXEC) then back", dup3(0, 1, O_CLOEXEC) < 0 ? -1 : dup2(out, 1));
    close(out);
    close(p[0]);
}

static int by_number(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void list_fds(void)
{
    int keep = open("/proc/self/fd", O_RDONLY | O_DIRECTORY); // an fd of our own, listed too
    DIR *dir = opendir("/proc/self/fd");
    int fds[64], n = 0;
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL && n < 64)
        if (e->d_name[0] != '.')
            fds[n++] = atoi(e->d_name);
    closedir(dir);
    close(keep);
    qsort(fds, (size_t)n, sizeof fds[0], by_number);
    printf("/proc/self/fd lists:");
    for (int i = 0; i < n; i++)
        if (fds[i] < 10) // not what the runner's own parent may have left open
            printf(" %d", fds[i]);
    printf("\n");
}

int main(void)
{
    describe("fd 0", 0);
    describe("fd 1", 1);
    describe("fd 2", 2);
    report_errnum("posix_fadvise(0)", posix_fadvise(0, 0, 0, POSIX_FADV_SEQUENTIAL));
    struct stat st;
    if (fstat(0, &st) == 0 && S_ISREG(st.st_mode))
        seek_stdin();
    else
        seek_unseekable(0);
    seek_unseekable(2);
    redirect_stderr();
    list_fds();
    describe("fd 1 at the end", 1);
    return 0;
}
