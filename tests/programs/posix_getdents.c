// getdents64 (and getdents) on a directory fd, as on Linux: records of struct linux_dirent64,
// the fd's position moving with each call, lseek back to 0 or to any d_off, telldir's values
// usable as positions, EINVAL for a buffer too small for the next entry, EBADF and ENOTDIR.
// Entry order and d_off values differ between filesystems, so the checks hold for any order;
// compared byte for byte with the native build.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

#define MAX_ENTRIES 16

struct entry {
    char name[64];
    long long off;
    unsigned reclen;
    unsigned char type;
    unsigned long long ino;
};

static struct entry listed[MAX_ENTRIES];
static int count;
static char dir[64];

static size_t expected_reclen(const char *name)
{
    return (offsetof(struct dirent64, d_name) + strlen(name) + 1 + 7) & ~(size_t)7;
}

/* Reads the records of one call into `out` (at most `room` of them); returns how many, or -1. */
static int read_records(int fd, size_t size, struct entry *out, int room, ssize_t *bytes)
{
    char buffer[4096] __attribute__((aligned(8)));
    *bytes = getdents64(fd, buffer, size);
    if (*bytes < 0)
        return -1;
    int n = 0;
    for (ssize_t at = 0; at < *bytes && n < room; n++) {
        struct dirent64 *d = (struct dirent64 *)(buffer + at);
        snprintf(out[n].name, sizeof out[n].name, "%s", d->d_name);
        out[n].off = (long long)d->d_off;
        out[n].reclen = d->d_reclen;
        out[n].type = d->d_type;
        out[n].ino = (unsigned long long)d->d_ino;
        at += d->d_reclen;
    }
    return n;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void make_tree(const char *parent)
{
    snprintf(dir, sizeof dir, "%s/posix_getdents.%d", parent, (int)getpid());
    mkdir(dir, 0755);
    const char *files[] = {"a", "bb", "a_name_of_some_length_for_padding", "12345"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        close(open(path, O_CREAT | O_WRONLY, 0644));
    }
    char path[160];
    snprintf(path, sizeof path, "%s/sub", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/link", dir);
    symlink("a", path);
}

static void list_all(int fd)
{
    ssize_t bytes;
    int n;
    while ((n = read_records(fd, 4096, listed + count, MAX_ENTRIES - count, &bytes)) > 0) {
        count += n;
    }
    printf("listing: %d entries, ends with %zd %s\n", count, bytes, bytes < 0 ? errno_name(errno) : "");
    int reclen_ok = 1, ino_ok = 1, type_ok = 1;
    for (int i = 0; i < count; i++) {
        reclen_ok &= listed[i].reclen == expected_reclen(listed[i].name);
        char path[160];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, listed[i].name);
        lstat(path, &st);
        ino_ok &= listed[i].ino == (unsigned long long)st.st_ino;
        type_ok &= listed[i].type == IFTODT(st.st_mode);
    }
    printf("d_reclen, d_ino, d_type as lstat says: %d %d %d\n", reclen_ok, ino_ok, type_ok);
    printf("the position is the last d_off: %d\n", lseek(fd, 0, SEEK_CUR) == listed[count - 1].off);
    report("getdents64 at the end", read_records(fd, 4096, NULL, 0, &bytes));
    struct entry sorted[MAX_ENTRIES];
    memcpy(sorted, listed, sizeof sorted);
    qsort(sorted, (size_t)count, sizeof sorted[0], compare_names);
    for (int i = 0; i < count; i++)
        printf("  %-34s type %d\n", sorted[i].name, sorted[i].type);
}

/* From position 0 with a buffer that holds just the first record, then the rest. */
static void one_then_rest(int fd)
{
    lseek(fd, 0, SEEK_SET);
    struct entry got[MAX_ENTRIES];
    ssize_t bytes;
    int first = read_records(fd, listed[0].reclen, got, MAX_ENTRIES, &bytes);
    int rest = read_records(fd, 4096, got + 1, MAX_ENTRIES - 1, &bytes);
    int same = first == 1 && rest == count - 1;
    for (int i = 0; same && i < count; i++)
        same = strcmp(got[i].name, listed[i].name) == 0;
    printf("rewound, one record then the rest, in the same order: %d\n", same);
}

static void seek_to_each(int fd)
{
    int all = 1;
    for (int i = 0; i + 1 < count; i++) {
        lseek(fd, (off_t)listed[i].off, SEEK_SET);
        struct entry next;
        ssize_t bytes;
        all &= read_records(fd, 4096, &next, 1, &bytes) == 1 && strcmp(next.name, listed[i + 1].name) == 0;
    }
    printf("lseek to each d_off goes on with the next entry: %d\n", all);
}

static void errors(int fd)
{
    char small[64] __attribute__((aligned(8)));
    lseek(fd, 0, SEEK_SET);
    report("getdents64, 1-byte buffer", getdents64(fd, small, 1));
    report("getdents64, 0-byte buffer", getdents64(fd, small, 0));
    report("getdents64 of a closed fd", getdents64(999, small, sizeof small));
    char path[160];
    snprintf(path, sizeof path, "%s/a", dir);
    int file = open(path, O_RDONLY);
    report("getdents64 of a file", getdents64(file, small, sizeof small));
    close(file);
#ifdef __wasi__
    /* musl's getdents, glibc's getdents64: the same records */
    report("getdents, 1-byte buffer", getdents(fd, (struct dirent *)small, 1));
#else
    report("getdents, 1-byte buffer", getdents64(fd, small, 1));
#endif
}

/* telldir's value is a position in the same numbering as d_off: lseek takes it */
static void telldir_positions(void)
{
    DIR *stream = opendir(dir);
    struct dirent *first = readdir(stream);
    long after_first = telldir(stream);
    printf("telldir after the first entry is its d_off: %d\n", after_first == (long)first->d_off);
    char second[64];
    snprintf(second, sizeof second, "%s", readdir(stream)->d_name);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    lseek(fd, after_first, SEEK_SET);
    struct entry next;
    ssize_t bytes;
    read_records(fd, 4096, &next, 1, &bytes);
    printf("getdents64 from telldir's position gives readdir's next: %d\n", strcmp(next.name, second) == 0);
    close(fd);
    closedir(stream);
}

static void remove_tree(void)
{
    for (int i = 0; i < count; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s/%s", dir, listed[i].name);
        if (strcmp(listed[i].name, "sub") == 0)
            rmdir(path);
        else if (listed[i].name[0] != '.')
            unlink(path);
    }
    rmdir(dir);
}

/* argv[1]: where to make the directory (tests/mount.test.js runs it on a mount) */
int main(int argc, char **argv)
{
    make_tree(argc > 1 ? argv[1] : "/tmp");
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    list_all(fd);
    one_then_rest(fd);
    seek_to_each(fd);
    errors(fd);
    close(fd);
    telldir_positions();
    remove_tree();
    return 0;
}
