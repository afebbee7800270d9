// access() answers by the mode bits, as Linux answers its owner (an ordinary user): files and
// directories of every read/write/execute combination, compared byte for byte with the native
// build. tests/mount.test.js runs it on a host-directory mount too, where access used to check
// existence only. Natively the program gives up root first, once its directory is the user's.
// Usage: posix_access_modes [DIR] (default /tmp); works in DIR/access_modes.PID.
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"
#include "posix_work_dir.h"

static const mode_t modes[] = {0000, 0100, 0200, 0300, 0400, 0500, 0600, 0700, 0070, 0007};
#define COUNT (sizeof modes / sizeof modes[0])

static void show(const char *name)
{
    static const struct {
        int mode;
        const char *text;
    } asks[] = {{F_OK, "F"}, {R_OK, "R"}, {W_OK, "W"}, {X_OK, "X"}, {R_OK | W_OK, "RW"}, {R_OK | X_OK, "RX"}};
    printf("%-8s", name);
    for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
        errno = 0;
        int rc = access(path_of(name), asks[i].mode);
        printf(" %s:%s", asks[i].text, rc == 0 ? "ok" : errno == EACCES ? "EACCES" : "other");
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    snprintf(work, sizeof work, "%s/access_modes.%d", argc > 1 ? argv[1] : "/tmp", (int)getpid());
    if (mkdir(work, 0755) != 0) {
        perror("mkdir");
        return 1;
    }
    if (chown(work, 1000, 1000) != 0 && errno != EPERM) /* a mount refuses it: it is the user's */
        perror("chown");
    become_ordinary_user();
    char name[32];
    for (size_t i = 0; i < COUNT; i++) {
        snprintf(name, sizeof name, "f%04o", (unsigned)modes[i]);
        touch(name);
        chmod(path_of(name), modes[i]);
        show(name);
        snprintf(name, sizeof name, "d%04o", (unsigned)modes[i]);
        mkdir(path_of(name), 0700);
        chmod(path_of(name), modes[i]);
        show(name);
    }
    show("missing");
    for (size_t i = 0; i < COUNT; i++) {
        snprintf(name, sizeof name, "f%04o", (unsigned)modes[i]);
        unlink(path_of(name));
        snprintf(name, sizeof name, "d%04o", (unsigned)modes[i]);
        rmdir(path_of(name));
    }
    rmdir(work); /* (natively not where the parent is root's: the test removes that) */
    return 0;
}
