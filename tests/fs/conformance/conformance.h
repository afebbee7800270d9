/* Helpers for the conformance programs: plain POSIX C that prints
 * deterministic results, so the output natively on Linux and in wasm under
 * Spindle can be compared byte for byte. Only relative paths inside a fresh
 * scratch directory are used, and nothing host-specific is printed (no fd
 * numbers, inode numbers, permissions, directory sizes or block counts). */
#ifndef SPINDLE_CONFORMANCE_H
#define SPINDLE_CONFORMANCE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* posix_fallocate, readv with strict -std */
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static inline const char *errno_name(int e)
{
    switch (e) {
    case 0:
        return "0";
    case EPERM:
        return "EPERM";
    case ENOENT:
        return "ENOENT";
    case EIO:
        return "EIO";
    case EBADF:
        return "EBADF";
    case ENOMEM:
        return "ENOMEM";
    case EACCES:
        return "EACCES";
    case EBUSY:
        return "EBUSY";
    case EEXIST:
        return "EEXIST";
    case EXDEV:
        return "EXDEV";
    case ENOTDIR:
        return "ENOTDIR";
    case EISDIR:
        return "EISDIR";
    case EINVAL:
        return "EINVAL";
    case EMFILE:
        return "EMFILE";
    case EFBIG:
        return "EFBIG";
    case ENOSPC:
        return "ENOSPC";
    case ESPIPE:
        return "ESPIPE";
    case ENAMETOOLONG:
        return "ENAMETOOLONG";
    case ENOTEMPTY:
        return "ENOTEMPTY";
    case ELOOP:
        return "ELOOP";
    case EOVERFLOW:
        return "EOVERFLOW";
    case ENOTSUP:
        return "ENOTSUP";
    default:
        return "E(other)";
    }
}

/* Prints "label: ok" or "label: ERRNAME" for a call returning < 0 on error. */
#define SHOW(label, expr)                                                                                    \
    do {                                                                                                     \
        errno = 0;                                                                                           \
        long long show_rc_ = (long long)(expr);                                                              \
        if (show_rc_ < 0)                                                                                    \
            printf("%s: %s\n", (label), errno_name(errno));                                                  \
        else                                                                                                 \
            printf("%s: ok\n", (label));                                                                     \
    } while (0)

/* Prints the value of a call, or its errno name. */
#define SHOW_VALUE(label, expr)                                                                              \
    do {                                                                                                     \
        errno = 0;                                                                                           \
        long long show_rc_ = (long long)(expr);                                                              \
        if (show_rc_ < 0)                                                                                    \
            printf("%s: %s\n", (label), errno_name(errno));                                                  \
        else                                                                                                 \
            printf("%s: %lld\n", (label), show_rc_);                                                         \
    } while (0)

static char scratch_dir[512];

/* Creates a fresh directory under $TMPDIR (or /tmp) and makes it the cwd.
 * (WASI has no mkdtemp: take the first free numbered name.) */
static inline void enter_scratch_dir(void)
{
    const char *base = getenv("TMPDIR");
    if (base == NULL || *base == '\0')
        base = "/tmp";
    for (int i = 0;; i++) {
        snprintf(scratch_dir, sizeof scratch_dir, "%s/spindle-conf-%d", base, i);
        if (mkdir(scratch_dir, 0755) == 0)
            break;
        if (errno != EEXIST || i > 100000) {
            perror("scratch directory");
            exit(2);
        }
    }
    if (chdir(scratch_dir) != 0) {
        perror("chdir scratch directory");
        exit(2);
    }
}

static inline int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints the sorted entries of a directory (without . and ..) with types. */
static inline void show_listing(const char *label, const char *path)
{
    DIR *dir = opendir(path);
    if (dir == NULL) {
        printf("%s: %s\n", label, errno_name(errno));
        return;
    }
    char *names[512];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && count < 512) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char full[1024];
        struct stat st;
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        const char *kind = "?";
        if (lstat(full, &st) == 0)
            kind = S_ISDIR(st.st_mode) ? "/" : S_ISLNK(st.st_mode) ? "@" : "";
        char *line = malloc(strlen(e->d_name) + 2);
        sprintf(line, "%s%s", e->d_name, kind);
        names[count++] = line;
    }
    closedir(dir);
    qsort(names, (size_t)count, sizeof names[0], compare_names);
    printf("%s:", label);
    for (int i = 0; i < count; i++) {
        printf(" %s", names[i]);
        free(names[i]);
    }
    printf("\n");
}

static inline long long size_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static inline long long nlink_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (long long)st.st_nlink : -1;
}

static inline int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Reads up to cap-1 bytes of a file into buf as a string. */
static inline const char *read_text(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(buf, cap, "<%s>", errno_name(errno));
        return buf;
    }
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    return buf;
}

#endif
