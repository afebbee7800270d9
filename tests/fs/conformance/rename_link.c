/* rename (files and directories, every error rule), hard links and unlink
 * of open files. */
#include "conformance.h"

int main(void)
{
    enter_scratch_dir();
    char buf[64];
    write_text("a", "A");
    write_text("b", "B");
    int held = open("b", O_RDONLY);
    SHOW("rename a over b", rename("a", "b"));
    printf("b now: %s\n", read_text("b", buf, sizeof buf));
    SHOW("a still exists", access("a", F_OK));
    memset(buf, 0, sizeof buf);
    SHOW_VALUE("read replaced file through held fd", read(held, buf, sizeof buf - 1));
    printf("held content: %s\n", buf);
    struct stat st;
    fstat(held, &st);
    printf("held nlink: %lld\n", (long long)st.st_nlink);
    close(held);
    SHOW("rename missing", rename("a", "c"));
    SHOW("rename to itself", rename("b", "b"));

    mkdir("d1", 0755);
    mkdir("d1/inner", 0755);
    mkdir("d2", 0755);
    mkdir("full", 0755);
    write_text("full/x", "x");
    SHOW("dir into own subtree", rename("d1", "d1/inner/x"));
    SHOW("dir into itself", rename("d1", "d1/x"));
    SHOW("dir over its ancestor", rename("d1/inner", "d1"));
    SHOW("dir over non-empty dir", rename("d1", "full"));
    SHOW("dir over file", rename("d1", "b"));
    SHOW("file over dir", rename("b", "d2"));
    SHOW("file to name with slash", rename("b", "z/"));
    /* rename(".", ...) is not compared: wasi-libc turns "." into the cwd's
     * own path before the call, so Spindle sees a different request. */
    SHOW("rename to ..", rename("b", "d1/.."));
    SHOW("file under a file", rename("b", "b/x"));
    SHOW("dir over empty dir", rename("d1", "d2"));
    show_listing("scratch", ".");
    show_listing("d2", "d2");
    SHOW("move dir into another", rename("d2", "full/moved"));
    SHOW("moved .. is full", access("full/moved/inner/../../x", F_OK));
    SHOW("move back with trailing slashes", rename("full/moved/", "back/"));
    show_listing("after moves", ".");

    /* hard links */
    write_text("l1", "linked");
    SHOW("link", link("l1", "l2"));
    printf("nlink l1: %lld\n", (long long)(lstat("l1", &st), st.st_nlink));
    struct stat s2;
    lstat("l2", &s2);
    printf("same inode: %d\n", st.st_ino == s2.st_ino);
    SHOW("link existing name", link("l1", "l2"));
    SHOW("link a directory", link("back", "back2"));
    SHOW("link missing", link("missing", "l3"));
    SHOW("link into missing dir", link("l1", "nodir/l3"));
    SHOW("link to a name with trailing slash", link("l1", "l9/"));
    SHOW("link to an existing name with trailing slash", link("l1", "l2/"));
    SHOW("link from a name with trailing slash", link("l1/", "l9"));
    SHOW("symlink at a name with trailing slash", symlink("l1", "s9/"));
    SHOW("mkdir over a file with trailing slash", mkdir("l1/", 0755));
    SHOW("rmdir file with trailing slash", rmdir("l1/"));
    SHOW("unlink dir with trailing slash", unlink("back/"));
    SHOW("unlink l1", unlink("l1"));
    printf("l2: %s nlink %lld\n", read_text("l2", buf, sizeof buf),
           (long long)(lstat("l2", &st), st.st_nlink));
    SHOW("rename over a hard link of itself", rename("l2", "l2"));
    link("l2", "l3");
    SHOW("rename l2 over l3 (same inode)", rename("l2", "l3"));
    printf("l2 and l3 both exist: %d\n", access("l2", F_OK) == 0 && access("l3", F_OK) == 0);

    /* unlink of an open file */
    write_text("open-then-unlinked", "still readable");
    int fd = open("open-then-unlinked", O_RDWR);
    SHOW("unlink while open", unlink("open-then-unlinked"));
    SHOW("open after unlink", open("open-then-unlinked", O_RDONLY));
    memset(buf, 0, sizeof buf);
    SHOW_VALUE("read after unlink", read(fd, buf, sizeof buf - 1));
    printf("content: %s\n", buf);
    SHOW_VALUE("write after unlink", write(fd, "!", 1));
    fstat(fd, &st);
    printf("fstat after unlink: size %lld nlink %lld\n", (long long)st.st_size, (long long)st.st_nlink);
    SHOW("close unlinked", close(fd));
    show_listing("final", ".");
    return 0;
}
