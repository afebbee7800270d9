// The order of a listing, compared byte for byte with the native build on Linux's tmpfs
// (/dev/shm natively, where the in-memory tree is what Spindle has): newest first, after "." and
// "..". Unlinking the entry just read and creating a name during the listing (the new name is
// not seen), a listing resumed with seekdir, and rewinddir after changes.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_work_dir.h"

/* Prints the names readdir gives from here on; "." and ".." are listed too. */
static void list(DIR *dir, const char *label)
{
    printf("%s:", label);
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        printf(" %s", e->d_name);
    printf("\n");
}

int main(void)
{
    /* tmpfs natively: the order is the file system's, and the in-memory tree is a tmpfs */
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(work, sizeof work, "%s/readdir_order.%d", base, (int)getpid());
    if (mkdtemp(strcat(work, ".XXXXXX")) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    const char *names[] = {"b", "a", "d", "c", "e"};
    for (int i = 0; i < 5; i++)
        touch(names[i]);
    DIR *dir = opendir(work);
    list(dir, "created b a d c e");

    rewinddir(dir);
    readdir(dir); /* "." */
    readdir(dir); /* ".." */
    struct dirent *e = readdir(dir);
    long after_first = telldir(dir);
    printf("first: %s\n", e->d_name);
    list(dir, "rest");
    seekdir(dir, after_first);
    list(dir, "seekdir after the first");

    rewinddir(dir);
    printf("unlinking during the listing:");
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        unlink(path_of(e->d_name));
        printf(" -%s", e->d_name);
        if (strcmp(e->d_name, "d") == 0)
            touch("x"); /* created during the listing: not seen by it */
    }
    printf("\n");
    rewinddir(dir);
    list(dir, "after rewinddir");
    closedir(dir);

    touch("y");
    mkdir(path_of("sub"), 0755);
    touch("z");
    dir = opendir(work);
    list(dir, "x, then y sub z");
    closedir(dir);
    const char *left[] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++)
        unlink(path_of(left[i]));
    rmdir(path_of("sub"));
    return rmdir(work) == 0 ? 0 : 1;
}
