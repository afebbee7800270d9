// Permission checks as Linux makes them for an ordinary user who owns every file: read-only
// files and directories, directories without search (x) or read (r) permission, access(),
// mknod of a device, chown to another owner. Natively the program first gives up root and
// becomes uid/gid 1000, which is what a Spindle program is (docs/POSIX.md); built with
// AS_ROOT (posix_permissions_root.c) it stays root natively and is linked with
// `spindle cc --as-root`, and every check passes as root's do. Compared byte for byte.
// Usage: posix_permissions [DIR] (default /tmp; tests/mount.test.js gives a mounted directory).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

static char base[96];

/* base/name, in one of 4 buffers that later calls reuse */
static const char *at(const char *name)
{
    static char paths[4][160];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", base, name);
    return p;
}

/* an open's result as a report: the fd is closed at once */
static int opened(int fd)
{
    if (fd >= 0)
        close(fd);
    return fd < 0 ? -1 : 0;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void read_only_file(void)
{
    char file[160];
    snprintf(file, sizeof file, "%s", at("ro"));
    int fd = open(file, O_CREAT | O_WRONLY | O_EXCL, 0444); /* creating it opens it for writing */
    report("create 0444 for writing", fd < 0 ? -1 : 0);
    report("write", (int)write(fd, "data", 4) - 4);
    close(fd);
    report("open(O_WRONLY)", opened(open(file, O_WRONLY)));
    report("open(O_RDWR)", opened(open(file, O_RDWR)));
    report("open(O_RDONLY | O_TRUNC)", opened(open(file, O_RDONLY | O_TRUNC)));
    report("open(O_WRONLY | O_CREAT)", opened(open(file, O_WRONLY | O_CREAT, 0644)));
    report("truncate", truncate(file, 0));
    printf("  size after: %ld\n", file_size(file));
    fd = open(file, O_RDONLY);
    report("open(O_RDONLY)", fd < 0 ? -1 : 0);
    report("ftruncate of a read-only fd", ftruncate(fd, 0));
    close(fd);
    report("utimensat(NULL) as owner", utimensat(AT_FDCWD, file, NULL, 0));
    report("chmod 0644 as owner", chmod(file, 0644));
    report("truncate after chmod", truncate(file, 1));
    printf("  size after: %ld\n", file_size(file));
    report("chmod 0200", chmod(file, 0200));
    report("open(O_RDONLY) of 0200", opened(open(file, O_RDONLY)));
    report("open(O_WRONLY) of 0200", opened(open(file, O_WRONLY)));
}

static void access_calls(void)
{
    char file[160];
    snprintf(file, sizeof file, "%s", at("ro"));
    chmod(file, 0444);
    report("access(0444, F_OK)", access(file, F_OK));
    report("access(0444, R_OK)", access(file, R_OK));
    report("access(0444, W_OK)", access(file, W_OK));
    report("access(0444, X_OK)", access(file, X_OK));
    report("access(0444, R_OK | W_OK)", access(file, R_OK | W_OK));
    report("faccessat(0444, W_OK, AT_EACCESS)", faccessat(AT_FDCWD, file, W_OK, AT_EACCESS));
    chmod(file, 0755);
    report("access(0755, R_OK | W_OK | X_OK)", access(file, R_OK | W_OK | X_OK));
    chmod(file, 0070);
    report("access(0070, R_OK) (group bits only)", access(file, R_OK));
    report("access(missing, R_OK)", access(at("missing"), R_OK));
    report("access(dir, W_OK | X_OK)", access(base, W_OK | X_OK));
    chmod(file, 0644);
}

static void read_only_dir(void)
{
    char dir[160];
    snprintf(dir, sizeof dir, "%s", at("rodir"));
    report("mkdir rodir", mkdir(dir, 0755));
    close(open(at("rodir/kept"), O_CREAT | O_WRONLY, 0644));
    report("mkdir rodir/sub", mkdir(at("rodir/sub"), 0755));
    report("chmod rodir 0555", chmod(dir, 0555));
    report("create in it", opened(open(at("rodir/new"), O_CREAT | O_WRONLY, 0644)));
    report("mkdir in it", mkdir(at("rodir/newdir"), 0755));
    report("mkdir of an existing name in it", mkdir(at("rodir/sub"), 0755));
    report("symlink in it", symlink("kept", at("rodir/link")));
    report("link in it", link(at("rodir/kept"), at("rodir/hard")));
    report("link from it to outside", link(at("rodir/kept"), at("hard")));
    unlink(at("hard"));
    report("unlink in it", unlink(at("rodir/kept")));
    report("unlink of a missing name in it", unlink(at("rodir/missing")));
    report("rmdir in it", rmdir(at("rodir/sub")));
    report("rename in it", rename(at("rodir/kept"), at("rodir/renamed")));
    report("rename out of it", rename(at("rodir/kept"), at("out")));
    report("open(O_WRONLY) of a file in it", opened(open(at("rodir/kept"), O_WRONLY)));
    report("open(O_CREAT) of an existing file in it",
           opened(open(at("rodir/kept"), O_WRONLY | O_CREAT, 0644)));
    report("open(O_CREAT | O_EXCL) of an existing file in it",
           open(at("rodir/kept"), O_WRONLY | O_CREAT | O_EXCL, 0644));
    report("chmod rodir 0755", chmod(dir, 0755));
    report("unlink after chmod", unlink(at("rodir/kept")));

    /* moving a directory to another parent rewrites its "..": it needs write permission too */
    report("chmod rodir/sub 0555", chmod(at("rodir/sub"), 0555));
    report("rename a 0555 dir within its parent", rename(at("rodir/sub"), at("rodir/sub2")));
    report("rename a 0555 dir to another parent", rename(at("rodir/sub2"), at("moved")));
    chmod(at("rodir/sub2"), 0755);
    rmdir(at("rodir/sub2"));
    rmdir(dir);
}

static void unsearchable_dir(void)
{
    char dir[160];
    snprintf(dir, sizeof dir, "%s", at("nox"));
    mkdir(dir, 0755);
    close(open(at("nox/file"), O_CREAT | O_WRONLY, 0644));
    report("chmod nox 0666", chmod(dir, 0666));
    struct stat st;
    report("stat(nox)", stat(dir, &st));
    report("stat(nox/file)", stat(at("nox/file"), &st));
    report("stat(nox/.)", stat(at("nox/."), &st));
    report("open(nox/file)", opened(open(at("nox/file"), O_RDONLY)));
    report("create nox/new", opened(open(at("nox/new"), O_CREAT | O_WRONLY, 0644)));
    report("unlink(nox/file)", unlink(at("nox/file")));
    report("mkdir(nox/d)", mkdir(at("nox/d"), 0755));
    report("chdir(nox)", chdir(dir));
    report("access(nox/file, F_OK)", access(at("nox/file"), F_OK));
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    report("open(nox, O_DIRECTORY) with r", fd < 0 ? -1 : 0);
    report("fstatat(nox fd, file)", fstatat(fd, "file", &st, 0));
    close(fd);
    report("chmod nox 0311", chmod(dir, 0311));
    report("open(nox, O_DIRECTORY) without r", opened(open(dir, O_RDONLY | O_DIRECTORY)));
    report("stat(nox/file) with x", stat(at("nox/file"), &st));
    chmod(dir, 0755);
    unlink(at("nox/file"));
    rmdir(dir);
}

/* A walk's moves: into a child, to a sibling, back up, where a sibling and then an ancestor
 * lose search permission between calls (a mount's memo of searchable directories must follow). */
static void walk_moves(void)
{
    struct stat st;
    mkdir(at("w"), 0755);
    mkdir(at("w/a"), 0755);
    mkdir(at("w/a/b"), 0755);
    mkdir(at("w/c"), 0755);
    close(open(at("w/a/b/f"), O_CREAT | O_WRONLY, 0644));
    close(open(at("w/c/g"), O_CREAT | O_WRONLY, 0644));
    report("stat(w/a/b/f)", stat(at("w/a/b/f"), &st));
    report("stat(w/c/g), a sibling", stat(at("w/c/g"), &st));
    report("stat(w/a), back up", stat(at("w/a"), &st));
    report("chmod w/c 0644", chmod(at("w/c"), 0644));
    report("stat(w/a/b/f) again", stat(at("w/a/b/f"), &st));
    report("stat(w/c/g) without x on w/c", stat(at("w/c/g"), &st));
    report("create w/c/h without x on w/c", opened(open(at("w/c/h"), O_CREAT | O_WRONLY, 0644)));
    report("chmod w/a 0600", chmod(at("w/a"), 0600));
    report("stat(w/a/b/f) without x on w/a", stat(at("w/a/b/f"), &st));
    report("stat(w/a/b) without x on w/a", stat(at("w/a/b"), &st));
    report("stat(w/a) itself", stat(at("w/a"), &st));
    report("chmod w/a 0755", chmod(at("w/a"), 0755));
    report("stat(w/a/b/f) with x again", stat(at("w/a/b/f"), &st));
    chmod(at("w/c"), 0755);
    unlink(at("w/a/b/f"));
    unlink(at("w/c/g"));
    rmdir(at("w/a/b"));
    rmdir(at("w/a"));
    rmdir(at("w/c"));
    rmdir(at("w"));
}

static void devices_and_owners(void)
{
    report("mknod(S_IFCHR)", mknod(at("dev"), S_IFCHR | 0644, (dev_t)0x103));
    report("mknod(S_IFBLK)", mknod(at("blk"), S_IFBLK | 0644, (dev_t)0x700));
    report("mknod(S_IFREG)", mknod(at("plain"), S_IFREG | 0600, 0));
    struct stat st;
    stat(at("plain"), &st);
    printf("  regular: %d, mode %o, size %ld\n", S_ISREG(st.st_mode), (unsigned)(st.st_mode & 07777),
           (long)st.st_size);
    report("mknod(existing)", mknod(at("plain"), S_IFREG | 0600, 0));
    report("mknod(S_IFDIR)", mknod(at("d"), S_IFDIR | 0755, 0));
    report("unlink(dir)", unlink(base));
    report("chown(own uid, own gid)", chown(at("plain"), getuid(), getgid()));
    report("chown(another uid)", chown(at("plain"), getuid() + 1, (gid_t)-1));
    report("chown(-1, another gid)", chown(at("plain"), (uid_t)-1, getgid() + 1));
    stat(at("plain"), &st);
    printf("  owner is the caller: %d\n", st.st_uid == getuid() && st.st_gid == getgid());
    unlink(at("plain"));
    unlink(at("dev"));
    unlink(at("blk"));
}

int main(int argc, char **argv)
{
    become_ordinary_user();
    printf("uid %u gid %u\n", (unsigned)getuid(), (unsigned)getgid());
    snprintf(base, sizeof base, "%s/posix_permissions.%d", argc > 1 ? argv[1] : "/tmp", (int)getpid());
    report("mkdir base", mkdir(base, 0755));
    struct stat st;
    stat(base, &st);
    printf("base owned by the caller: %d\n", st.st_uid == getuid() && st.st_gid == getgid());
    read_only_file();
    access_calls();
    read_only_dir();
    unsearchable_dir();
    walk_moves();
    devices_and_owners();
    unlink(at("ro"));
    report("rmdir base", rmdir(base));
    return 0;
}
