// Linux file-creation semantics under Spindle's POSIX layer: errno is 0 at main, the first
// open is fd 3, an access mode of 0 means O_RDONLY, the mode argument less the umask becomes
// the permission bits, chmod/fchmod/fchmodat change them, chown stores the owner.
// Compared byte for byte with the native build, run as an ordinary user (uid/gid 1000).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

static void show_mode(const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        printf("lstat %s: %s\n", path, strerror(errno));
    else
        printf("%-10s mode %06o uid %u gid %u\n", path, (unsigned)st.st_mode, (unsigned)st.st_uid,
               (unsigned)st.st_gid);
}

// statx reports what lstat does
static void check_statx(int dirfd, const char *path, int flags)
{
    struct statx sx;
    struct stat st;
    int rc = statx(dirfd, path, flags, STATX_BASIC_STATS, &sx);
    int rs =
        flags & AT_EMPTY_PATH ? fstat(dirfd, &st) : fstatat(dirfd, path, &st, flags & AT_SYMLINK_NOFOLLOW);
    printf("statx(%s) %d: mask has basic stats %d, agrees with stat %d (mode %06o nlink %u)\n", path, rc,
           (sx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS,
           rc == 0 && rs == 0 && sx.stx_mode == st.st_mode && sx.stx_ino == st.st_ino &&
               sx.stx_size == (unsigned long long)st.st_size && sx.stx_nlink == st.st_nlink &&
               sx.stx_uid == st.st_uid && sx.stx_mtime.tv_sec == st.st_mtim.tv_sec &&
               sx.stx_mtime.tv_nsec == (unsigned)st.st_mtim.tv_nsec,
           (unsigned)sx.stx_mode, (unsigned)sx.stx_nlink); // no size: a directory's depends on the filesystem
}

int main(void)
{
    printf("errno at main: %d\n", errno);
    become_ordinary_user();
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/posix_open_modes.%d", (int)getpid());
    if (mkdir(dir, 0700) < 0 || chdir(dir) < 0) {
        perror("scratch directory");
        return 1;
    }
    umask(022);
    int fd = open("created", O_CREAT | O_WRONLY, 0666);
    printf("first open gives fd %d\n", fd);
    close(fd);
    show_mode("created");

    // access mode 0: O_RDONLY on Linux
    report("open(O_CREAT, 0600) no access mode", fd = open("noaccess", O_CREAT, 0600));
    char c;
    report("read from it", read(fd, &c, 1));
    report("write to it", write(fd, "x", 1));
    close(fd);
    show_mode("noaccess");
    report("open(p, 0)", fd = open("noaccess", 0));
    close(fd);
    report("openat(AT_FDCWD, p, 0)", fd = openat(AT_FDCWD, "noaccess", 0));
    close(fd);
    /* wasi-libc's openat hands AT_FDCWD to its open() with no mode (the mode was dropped: 0) */
    report("openat(AT_FDCWD, p, O_CREAT, 0640)",
           fd = openat(AT_FDCWD, "created_at", O_CREAT | O_WRONLY, 0640));
    close(fd);
    show_mode("created_at");
    report("creat(p, 0751)", fd = creat("creat", 0751));
    close(fd);
    show_mode("creat");

    report("mkdir(d, 0777)", mkdir("d", 0777));
    show_mode("d");
    report("open(\"d/\", O_CREAT)", open("d/", O_CREAT, 0644));
    report("open(\"d\", O_CREAT|O_WRONLY)", open("d", O_CREAT | O_WRONLY, 0644));

    printf("umask(077) was %03o\n", (unsigned)umask(077));
    close(open("private", O_CREAT | O_RDWR, 0666));
    show_mode("private");
    report("mkdirat(AT_FDCWD, p, 0777)", mkdirat(AT_FDCWD, "pdir", 0777));
    show_mode("pdir");
    printf("umask(0) was %03o\n", (unsigned)umask(0));
    FILE *f = fopen("by_fopen", "w");
    fclose(f);
    show_mode("by_fopen");

    report("chmod(p, 04755)", chmod("created", 04755));
    show_mode("created");
    fd = open("created", O_RDONLY);
    report("fchmod(fd, 0400)", fchmod(fd, 0400));
    show_mode("created");
    report("fchmodat(AT_FDCWD, p, 0640, 0)", fchmodat(AT_FDCWD, "created", 0640, 0));
    show_mode("created");
    report("chmod(missing)", chmod("missing", 0644));
    report("fchmod(bad fd)", fchmod(99, 0644));

    report("chown(p, 1000, 2000)", chown("created", 1000, 2000));
    show_mode("created");
    report("fchown(fd, -1, 3000)", fchown(fd, (uid_t)-1, 3000));
    show_mode("created");
    report("symlink", symlink("created", "link"));
    report("lchmod(link, 0600)", lchmod("link", 0600));
    report("lchmod(created, 0604)", lchmod("created", 0604));
    show_mode("created");
    report("fchmodat(link, NOFOLLOW)", fchmodat(AT_FDCWD, "link", 0600, AT_SYMLINK_NOFOLLOW));
    report("fchmodat(created, NOFOLLOW)", fchmodat(AT_FDCWD, "created", 0640, AT_SYMLINK_NOFOLLOW));
    show_mode("created");
    report("lchown(link, 5, 6)", lchown("link", 5, 6));
    struct stat st;
    lstat("link", &st);
    printf("link uid %u gid %u\n", (unsigned)st.st_uid, (unsigned)st.st_gid);
    show_mode("created");
    report("fchownat(dirfd, p, 0, 0, 0)", fchownat(AT_FDCWD, "created", 0, 0, 0));
    show_mode("created");
    report("fchownat(fd, \"\", 7, 8, AT_EMPTY_PATH)", fchownat(fd, "", 7, 8, AT_EMPTY_PATH));
    show_mode("created");
    report("fchownat(fd, \"\", 0, 0, 0)", fchownat(fd, "", 0, 0, 0));
    int wfd = open("created", O_WRONLY);
    write(wfd, "12345", 5);
    close(wfd);
    check_statx(AT_FDCWD, "created", 0);
    check_statx(AT_FDCWD, "link", AT_SYMLINK_NOFOLLOW);
    check_statx(AT_FDCWD, "d", AT_STATX_DONT_SYNC);
    check_statx(fd, "", AT_EMPTY_PATH);
    struct statx sx;
    report("statx(missing)", statx(AT_FDCWD, "missing", 0, STATX_ALL, &sx));
    report("statx(\"\")", statx(AT_FDCWD, "", 0, STATX_ALL, &sx));
    report("chown(missing)", chown("missing", 0, 0));
    close(fd);

    const char *names[] = {"created", "created_at", "noaccess", "creat", "private", "by_fopen", "link"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(names[i]);
    rmdir("d");
    rmdir("pdir");
    chdir("/");
    report("cleanup", rmdir(dir));
    return 0;
}
