// readdir on a mount: every entry's d_ino, "." and ".." included, equals the st_ino that lstat
// reports for the same name (as on Linux). Lists the mount's root and a directory inside it.
// Usage: dirent_ino MOUNT_DIR; prints "entries N mismatches M".
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int entries, mismatches;

static void check_listing(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        perror(dir);
        mismatches++;
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        entries++;
        if (lstat(path, &st) < 0 || st.st_ino != e->d_ino) {
            printf("mismatch: %s d_ino %llu st_ino %llu\n", path, (unsigned long long)e->d_ino,
                   (unsigned long long)st.st_ino);
            mismatches++;
        }
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dirent_ino MOUNT_DIR\n");
        return 2;
    }
    char sub[256], path[512];
    snprintf(sub, sizeof sub, "%s/sub", argv[1]);
    mkdir(sub, 0755);
    const char *names[] = {"a", "b", "sub/c"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
        close(open(path, O_CREAT | O_WRONLY, 0644));
    }
    snprintf(path, sizeof path, "%s/link", argv[1]);
    symlink("a", path);
    check_listing(argv[1]);
    check_listing(sub);
    printf("entries %d mismatches %d\n", entries, mismatches);
    return mismatches != 0;
}
