// open/openat with O_CREAT and no mode argument (wasi-testsuite's pwrite-with-access does it):
// the file gets 0666 less the umask, so its owner can read it back. Natively the mode is
// whatever a register holds, so the output is Spindle's, given in posix_open_no_mode.json.
// A mode 0 that is passed stays 0 (posix_open_modes compares that with Linux).
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

static void show_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        printf("%-12s mode %04o\n", path, (unsigned)st.st_mode & 07777);
}

static void read_back(const char *path)
{
    char text[16] = {0};
    int fd = open(path, O_RDONLY);
    report("open(O_RDONLY)", fd);
    if (fd >= 0) {
        printf("reads \"%s\"\n", read(fd, text, sizeof text - 1) > 0 ? text : "");
        close(fd);
    }
}

static void create_and_write(const char *path, int fd)
{
    if (fd >= 0) {
        if (write(fd, "written", 7) != 7)
            perror("write");
        close(fd);
    }
    show_mode(path);
}

int main(void)
{
    mkdir("/tmp/no_mode", 0755);
    chdir("/tmp/no_mode");
    create_and_write("open", open("open", O_WRONLY | O_CREAT));
    read_back("open");
    create_and_write("openat", openat(AT_FDCWD, "openat", O_WRONLY | O_CREAT));
    read_back("openat");
    int dirfd = open(".", O_RDONLY | O_DIRECTORY);
    create_and_write("openat-dir", openat(dirfd, "openat-dir", O_CREAT | O_RDWR | O_TRUNC));
    close(dirfd);
    create_and_write("mode-0", open("mode-0", O_WRONLY | O_CREAT, 0));
    read_back("mode-0");
    umask(0);
    create_and_write("umask-0", open("umask-0", O_WRONLY | O_CREAT | O_EXCL));
    return 0;
}
