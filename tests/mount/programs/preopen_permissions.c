// Permission checks on a directory a WASI preopen gives (a portable module: spindle cc
// --host=wasi, run with --mount). The test prepares DIR, owned by uid 1000, as root: ro.txt
// (0444, "original"), locked/ (0555) holding kept.txt (0644), nosearch/ (0644) holding
// inside.txt, movable/ (0555) and writable/ (0755). Natively the program gives up root first
// (posix_report.h), unless built -DAS_ROOT, and its output must be the wasm run's.
// Usage: preopen_permissions DIR
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../programs/posix_report.h"

static const char *dir;

static const char *at(const char *name)
{
    static char path[2][512];
    static int which;
    which = !which; // two paths live at once (rename)
    snprintf(path[which], sizeof path[which], "%s/%s", dir, name);
    return path[which];
}

static void open_close(const char *what, const char *name, int flags)
{
    int fd = open(at(name), flags, 0644);
    report(what, fd);
    if (fd >= 0)
        close(fd);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: preopen_permissions DIR\n");
        return 2;
    }
    dir = argv[1];
    become_ordinary_user();
    open_close("open(0444 file, O_RDONLY)", "ro.txt", O_RDONLY);
    open_close("open(0444 file, O_WRONLY)", "ro.txt", O_WRONLY);
    open_close("open(0444 file, O_RDWR|O_TRUNC)", "ro.txt", O_RDWR | O_TRUNC);
    struct stat st;
    report("stat(0444 file)", stat(at("ro.txt"), &st));
    printf("its size after the O_TRUNC: %lld\n", (long long)st.st_size);
    open_close("open(0555 dir/new, O_CREAT)", "locked/new.txt", O_CREAT | O_WRONLY);
    open_close("open(0555 dir/kept, O_CREAT)", "locked/kept.txt", O_CREAT | O_WRONLY);
    report("mkdir(0555 dir/d)", mkdir(at("locked/d"), 0755));
    report("mkdir(0555 dir/kept)", mkdir(at("locked/kept.txt"), 0755));
    report("unlink(0555 dir/kept)", unlink(at("locked/kept.txt")));
    report("unlink(0555 dir/missing)", unlink(at("locked/missing")));
    report("stat(0644 dir/inside)", stat(at("nosearch/inside.txt"), &st));
    open_close("open(0644 dir/inside, O_RDONLY)", "nosearch/inside.txt", O_RDONLY);
    report("rename(0555 dir/kept, top)", rename(at("locked/kept.txt"), at("moved.txt")));
    report("rename(0555 dir to another parent)", rename(at("movable"), at("writable/movable")));
    report("rename(0555 dir in its parent)", rename(at("movable"), at("renamed")));
    report("mkdir(top/new)", mkdir(at("new"), 0755));
    report("rmdir(top/new)", rmdir(at("new")));
    return 0;
}
