/* The C side of the preload attribute test (tests/preload-files.test.js): what lstat, readlink
 * and stat say of each path, then the directory's names. Built with spindle cc and natively,
 * it must print the same for a preloaded tree as Linux prints for the host tree.
 * Usage: preload_attrs DIR NAME...  (lstat of DIR first: listing it changes its atime) */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *type_name(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:
        return "file";
    case S_IFDIR:
        return "dir";
    case S_IFLNK:
        return "link";
    default:
        return "other";
    }
}

static const char *errno_name(int err)
{
    switch (err) {
    case ENOENT:
        return "ENOENT";
    case ELOOP:
        return "ELOOP";
    case ENOTDIR:
        return "ENOTDIR";
    default:
        return "other";
    }
}

/* A directory's size differs between file systems: only files and links show theirs. */
static void print_stat(const char *what, int rc, const struct stat *st)
{
    if (rc != 0) {
        printf(" %s=%s", what, errno_name(errno));
        return;
    }
    printf(" %s=%s mode=%04o", what, type_name(st->st_mode), (unsigned)(st->st_mode & 07777));
    if (!S_ISDIR(st->st_mode))
        printf(" size=%lld", (long long)st->st_size);
    printf(" atime=%lld.%09ld mtime=%lld.%09ld", (long long)st->st_atim.tv_sec, st->st_atim.tv_nsec,
           (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

static void describe(const char *path, const char *name)
{
    struct stat st;
    printf("%s:", name);
    int rc = lstat(path, &st);
    print_stat("lstat", rc, &st);
    if (rc == 0 && S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t n = readlink(path, target, sizeof target - 1);
        target[n < 0 ? 0 : n] = '\0';
        printf(" readlink=%s", target);
        rc = stat(path, &st);
        print_stat("stat", rc, &st);
    }
    printf("\n");
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void list(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        printf("list: %s\n", errno_name(errno));
        return;
    }
    char *names[64];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && count < 64)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            names[count++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], by_name);
    printf("list:");
    for (int i = 0; i < count; i++) {
        printf(" %s", names[i]);
        free(names[i]);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: preload_attrs DIR NAME...\n");
        return 2;
    }
    describe(argv[1], ".");
    for (int i = 2; i < argc; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], argv[i]);
        describe(path, argv[i]);
    }
    list(argv[1]);
    return 0;
}
