/* scandir, scandirat and their sort orders, over the layer's directory streams
 * (directory_stream.c), so the entries have Linux's struct dirent. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef int (*entry_order)(const struct dirent **, const struct dirent **);

/* the order qsort applies in this thread (wasi-libc has no qsort_r) */
static _Thread_local entry_order sorting_by;

static int by_order(const void *a, const void *b)
{
    return sorting_by((const struct dirent **)a, (const struct dirent **)b);
}

static void free_entries(struct dirent **entries, size_t count)
{
    while (count > 0)
        free(entries[--count]);
    free(entries);
}

/* Appends a copy of entry (its d_reclen bytes, as glibc copies it); an errno value on failure. */
static int append(struct dirent ***entries, size_t *count, size_t *capacity, const struct dirent *entry)
{
    if (*count == INT_MAX)
        return EOVERFLOW; /* the count is returned as an int */
    if (*count == *capacity) {
        size_t more = *capacity ? *capacity * 2 : 16;
        struct dirent **bigger = realloc(*entries, more * sizeof **entries);
        if (bigger == NULL)
            return ENOMEM;
        *entries = bigger;
        *capacity = more;
    }
    struct dirent *copy = malloc(entry->d_reclen);
    if (copy == NULL)
        return ENOMEM;
    (*entries)[(*count)++] = memcpy(copy, entry, entry->d_reclen);
    return 0;
}

int scandirat(int dirfd, const char *path, struct dirent ***list, int (*keep)(const struct dirent *),
              entry_order order)
{
    DIR *dir = opendirat(dirfd, path);
    if (dir == NULL)
        return -1;
    struct dirent **entries = NULL;
    size_t count = 0, capacity = 0;
    int saved = errno, err = 0;
    for (;;) {
        errno = 0; /* keep may have set it; readdir's NULL is an error only if it sets errno */
        struct dirent *entry = readdir(dir);
        if (entry == NULL) {
            err = errno;
            break;
        }
        if ((keep == NULL || keep(entry)) && (err = append(&entries, &count, &capacity, entry)) != 0)
            break;
    }
    closedir(dir);
    if (err != 0) {
        free_entries(entries, count);
        errno = err;
        return -1;
    }
    if (order != NULL) {
        entry_order outer = sorting_by; /* an order that itself calls scandir */
        sorting_by = order;
        qsort(entries, count, sizeof *entries, by_order);
        sorting_by = outer;
    }
    *list = entries;
    errno = saved;
    return (int)count;
}

int scandir(const char *path, struct dirent ***list, int (*keep)(const struct dirent *), entry_order order)
{
    return scandirat(AT_FDCWD, path, list, keep, order);
}

int alphasort(const struct dirent **a, const struct dirent **b)
{
    return strcoll((*a)->d_name, (*b)->d_name);
}

int versionsort(const struct dirent **a, const struct dirent **b)
{
    return strverscmp((*a)->d_name, (*b)->d_name);
}
