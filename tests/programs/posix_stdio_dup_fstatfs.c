// fstatfs of a duplicate of stdio reports what fstatfs of the original reports, as on Linux: a
// pipe's pipefs (stdin, stderr) and the redirected stdout file's file system, through dup,
// F_DUPFD_CLOEXEC, dup2 onto another fd, and an open of /dev/stdout (which reopens the file).
// Compared byte for byte with the native build. (Not under --fs=js: it has no dup.)
#include <fcntl.h>
#include <stdio.h>
#include <sys/vfs.h>
#include <unistd.h>

static unsigned long fs_type(int fd)
{
    struct statfs st;
    return fstatfs(fd, &st) == 0 ? (unsigned long)st.f_type : 0;
}

static void compare(const char *what, int copy, int original)
{
    printf("%-28s same as fd %d: %s\n", what, original,
           copy >= 0 && fs_type(copy) == fs_type(original) ? "yes" : "no");
    if (copy > 2)
        close(copy);
}

int main(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        char what[32];
        snprintf(what, sizeof what, "dup(%d)", fd);
        compare(what, dup(fd), fd);
    }
    compare("fcntl(1, F_DUPFD_CLOEXEC)", fcntl(1, F_DUPFD_CLOEXEC, 5), 1);
    int copy = dup(2);
    compare("dup2(dup(2), 7)", dup2(copy, 7), 2);
    close(copy);
    compare("open(\"/dev/stdout\")", open("/dev/stdout", O_WRONLY | O_APPEND), 1);
    return 0;
}
