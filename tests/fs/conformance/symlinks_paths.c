/* Symlinks (readlink, lstat, ELOOP, 40 hops, O_NOFOLLOW, dangling O_CREAT)
 * and path resolution (., .., //, /.., ENAMETOOLONG, ENOTDIR, ENOENT). */
#include "conformance.h"

int main(void)
{
    enter_scratch_dir();
    char buf[5000];
    struct stat st;
    write_text("target", "pointed-to");
    SHOW("symlink", symlink("target", "link"));
    SHOW("symlink existing name", symlink("x", "link"));
    printf("through link: %s\n", read_text("link", buf, sizeof buf));
    ssize_t n = readlink("link", buf, sizeof buf);
    printf("readlink: %zd %.*s\n", n, (int)(n > 0 ? n : 0), buf);
    SHOW_VALUE("readlink short buffer", readlink("link", buf, 3));
    SHOW("readlink on a file", readlink("target", buf, sizeof buf));
    SHOW("readlink missing", readlink("missing", buf, sizeof buf));
    lstat("link", &st);
    printf("lstat: symlink %d size %lld\n", S_ISLNK(st.st_mode), (long long)st.st_size);
    stat("link", &st);
    printf("stat: regular %d size %lld\n", S_ISREG(st.st_mode), (long long)st.st_size);
    SHOW("open O_NOFOLLOW", open("link", O_RDONLY | O_NOFOLLOW));
    SHOW("open O_CREAT|O_EXCL on link", open("link", O_WRONLY | O_CREAT | O_EXCL, 0644));
    SHOW("symlink to a directory path", symlink("sub/deeper", "dirlink"));
    SHOW("dangling open", open("dirlink", O_RDONLY));
    mkdir("sub", 0755);
    SHOW("O_CREAT through dangling link", open("dangling-made", O_WRONLY | O_CREAT, 0644) < 0 ? -1 : 0);
    symlink("made-by-link", "dangling");
    int fd = open("dangling", O_WRONLY | O_CREAT, 0644);
    SHOW("create through dangling symlink", fd);
    close(fd);
    SHOW("target was created", access("made-by-link", F_OK));
    /* loops and the 40-hop limit */
    symlink("loop-b", "loop-a");
    symlink("loop-a", "loop-b");
    SHOW("open loop", open("loop-a", O_RDONLY));
    SHOW("stat through loop", stat("loop-a/x", &st));
    SHOW("lstat loop itself", lstat("loop-a", &st));
    mkdir("chain", 0755);
    write_text("chain/c0", "end");
    char name[64], target[64];
    for (int i = 1; i <= 41; i++) {
        snprintf(name, sizeof name, "chain/c%d", i);
        snprintf(target, sizeof target, "c%d", i - 1);
        symlink(target, name);
    }
    SHOW("40 links deep", stat("chain/c40", &st));
    SHOW("41 links deep", stat("chain/c41", &st));
    /* symlinks in the middle of paths */
    mkdir("real", 0755);
    write_text("real/file", "r");
    symlink("../real", "chain/up");
    SHOW("relative dir link mid-path", access("chain/up/file", F_OK));
    SHOW(".. after a dir link is the target's parent", access("chain/up/../target", F_OK));
    SHOW("dir link with trailing slash", stat("chain/up/", &st));
    SHOW("file link with trailing slash", stat("link/", &st));
    SHOW("unlink link keeps target", unlink("link"));
    SHOW("target still there", access("target", F_OK));
    SHOW("link() on a symlink", link("dangling", "hard-of-symlink"));
    lstat("hard-of-symlink", &st);
    printf("hard link of symlink is a symlink: %d\n", S_ISLNK(st.st_mode));

    /* path resolution */
    mkdir("p", 0755);
    mkdir("p/q", 0755);
    write_text("p/q/f", "data");
    SHOW("dots", access("p/./q/../q/f", F_OK));
    SHOW("double slashes", access("p//q///f", F_OK));
    struct stat root, up;
    stat("/", &root);
    stat("/..", &up);
    printf("/.. is /: %d\n", root.st_ino == up.st_ino && root.st_dev == up.st_dev);
    stat("/../../..", &up);
    printf("/../../.. is /: %d\n", root.st_ino == up.st_ino);
    SHOW("file as directory", access("p/q/f/x", F_OK));
    SHOW("missing component", access("p/missing/f", F_OK));
    /* access("") is not compared: wasi-libc resolves "" to the cwd itself
     * before calling the host (glibc passes it on and gets ENOENT). */
    memset(name, 0, sizeof name);
    char longname[300];
    memset(longname, 'n', 256);
    longname[256] = '\0';
    SHOW("name of 256 bytes", open(longname, O_WRONLY | O_CREAT, 0644));
    longname[255] = '\0';
    fd = open(longname, O_WRONLY | O_CREAT, 0644);
    SHOW("name of 255 bytes", fd);
    close(fd);
    SHOW("unlink 255-byte name", unlink(longname));
    size_t len = 0;
    while (len < 4990) {
        buf[len++] = 'p';
        buf[len++] = '/';
    }
    buf[len] = '\0';
    SHOW("path of 4990 bytes", access(buf, F_OK));
    show_listing("scratch", ".");
    return 0;
}
