/* Directories: mkdir/rmdir errors, listings, unlink vs rmdir, opendir,
 * removing an open directory, many entries. */
#include "conformance.h"

int main(void)
{
    enter_scratch_dir();
    char name[64];
    SHOW("mkdir d", mkdir("d", 0755));
    SHOW("mkdir d again", mkdir("d", 0755));
    SHOW("mkdir with trailing slash", mkdir("d/sub/", 0755));
    SHOW("mkdir under missing", mkdir("nope/x", 0755));
    SHOW("mkdir .", mkdir(".", 0755));
    SHOW("mkdir ..", mkdir("d/..", 0755));
    write_text("d/file", "x");
    SHOW("mkdir under a file", mkdir("d/file/x", 0755));
    SHOW("rmdir non-empty", rmdir("d"));
    SHOW("unlink a directory", unlink("d"));
    SHOW("rmdir a file", rmdir("d/file"));
    SHOW("unlink file with trailing slash", unlink("d/file/"));
    SHOW("rmdir .", rmdir("d/."));
    SHOW("rmdir ..", rmdir("d/sub/.."));
    SHOW("rmdir missing", rmdir("d/missing"));
    SHOW("opendir a file", opendir("d/file") ? 0 : -1);
    SHOW("opendir missing", opendir("d/missing") ? 0 : -1);
    show_listing("d", "d");
    SHOW("stat d/sub/..", access("d/sub/../file", F_OK));

    /* a directory can be removed while open; nothing can be created in it,
     * and it lists nothing, not even "." and ".." (Spindle's readdir reads
     * nothing ahead at opendir, as glibc's) */
    mkdir("gone", 0755);
    DIR *held = opendir("gone");
    SHOW("rmdir open directory", rmdir("gone"));
    SHOW("create in removed directory", open("gone/x", O_WRONLY | O_CREAT, 0644));
    struct stat st;
    SHOW("fstat removed directory", fstat(dirfd(held), &st));
    printf("removed directory's link count: %d\n", (int)st.st_nlink);
    int listed = 0;
    errno = 0;
    while (readdir(held) != NULL)
        listed++;
    printf("removed directory lists: %d entries, errno %s\n", listed, errno ? strerror(errno) : "0");
    closedir(held);

    /* many entries, then removing half */
    mkdir("many", 0755);
    for (int i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "many/f%04d", i);
        close(open(name, O_WRONLY | O_CREAT, 0644));
    }
    for (int i = 0; i < 2000; i += 2) {
        snprintf(name, sizeof name, "many/f%04d", i);
        unlink(name);
    }
    DIR *dir = opendir("many");
    int count = 0, odd = 0, dots = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        int n;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            dots++;
        else if (sscanf(e->d_name, "f%d", &n) == 1) {
            count++;
            odd += n % 2;
        }
    }
    closedir(dir);
    printf("many: %d entries, %d odd, %d dot entries\n", count, odd, dots);
    /* rewinddir sees changes made since */
    dir = opendir("many");
    readdir(dir);
    close(open("many/late", O_WRONLY | O_CREAT, 0644));
    rewinddir(dir);
    int late = 0;
    while ((e = readdir(dir)) != NULL)
        late += strcmp(e->d_name, "late") == 0;
    closedir(dir);
    printf("late entry after rewinddir: %d\n", late);
    /* d_type is reported (printed in a fixed order, not readdir's) */
    int sub_is_dir = 0, file_is_reg = 0;
    dir = opendir("d");
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, "sub") == 0)
            sub_is_dir = e->d_type == DT_DIR;
        if (strcmp(e->d_name, "file") == 0)
            file_is_reg = e->d_type == DT_REG;
    }
    closedir(dir);
    printf("d_type of sub is DT_DIR: %d, of file is DT_REG: %d\n", sub_is_dir, file_is_reg);
    /* emptying and removing */
    for (int i = 1; i < 2000; i += 2) {
        snprintf(name, sizeof name, "many/f%04d", i);
        unlink(name);
    }
    unlink("many/late");
    SHOW("rmdir emptied", rmdir("many"));
    SHOW("unlink d/file", unlink("d/file"));
    SHOW("rmdir d/sub/", rmdir("d/sub/"));
    SHOW("rmdir d", rmdir("d"));
    show_listing("scratch", ".");
    /* chdir and relative paths */
    mkdir("c1", 0755);
    mkdir("c1/c2", 0755);
    SHOW("chdir c1/c2", chdir("c1/c2"));
    write_text("../in-c1", "hi");
    SHOW("chdir ..", chdir(".."));
    show_listing("c1", ".");
    SHOW("chdir to a file", chdir("in-c1"));
    SHOW("chdir missing", chdir("missing"));
    return 0;
}
