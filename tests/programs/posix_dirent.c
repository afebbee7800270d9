// Directory streams with Linux's struct dirent, compared byte for byte with the native build:
// d_reclen (Linux's formula), d_type, d_ino against lstat, d_off with telldir and seekdir,
// readdir_r, readdir64, scandir/scandirat with a filter and alphasort/versionsort, rewinddir,
// fdopendir/dirfd, errors, a directory changed during the listing, streams read by several
// threads. Entry order and d_off values differ between filesystems, so only what Linux fixes is
// printed: names sorted, d_off checked for consistency.
// Usage: posix_dirent [DIR] (default /tmp); works in DIR/posix_dirent.PID (a mount in
// tests/mount.test.js).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"
#include "posix_work_dir.h"

#define MAX_NAMES 400

static const char *type_name(unsigned char type)
{
    switch (type) {
    case DT_REG:
        return "DT_REG";
    case DT_DIR:
        return "DT_DIR";
    case DT_LNK:
        return "DT_LNK";
    case DT_UNKNOWN:
        return "DT_UNKNOWN";
    default:
        return "(other)";
    }
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

struct listing {
    int n;
    char *names[MAX_NAMES];
};

static void sort_and_print(struct listing *l, const char *indent)
{
    qsort(l->names, l->n, sizeof l->names[0], by_name);
    for (int i = 0; i < l->n; i++) {
        printf("%s%s\n", indent, l->names[i]);
        free(l->names[i]);
    }
    l->n = 0;
}

static void list_sorted(const char *title, DIR *d)
{
    struct listing l = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL && l.n < MAX_NAMES)
        l.names[l.n++] = strdup(e->d_name);
    printf("%s: %d entries\n", title, l.n);
    sort_and_print(&l, "  ");
}

// every entry: d_reclen as Linux computes it, d_type, d_ino equal to lstat's st_ino
static void entries(void)
{
    printf("offsetof(d_name) %zu, sizeof(struct dirent) %zu\n", offsetof(struct dirent, d_name),
           sizeof(struct dirent));
    DIR *d = opendir(work);
    struct listing l = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL && l.n < MAX_NAMES) {
        struct stat st;
        int same_ino = lstat(path_of(e->d_name), &st) == 0 && st.st_ino == e->d_ino;
        size_t formula = (offsetof(struct dirent, d_name) + strlen(e->d_name) + 1 + 7) & ~(size_t)7;
        char line[400];
        snprintf(line, sizeof line, "%-8s %-7s d_reclen %u (formula: %s) d_ino is st_ino: %s", e->d_name,
                 type_name(e->d_type), e->d_reclen, e->d_reclen == formula ? "yes" : "no",
                 same_ino ? "yes" : "no");
        l.names[l.n++] = strdup(line);
    }
    closedir(d);
    printf("readdir: %d entries\n", l.n);
    sort_and_print(&l, "  ");
}

// d_off is telldir's value after the entry; seekdir to it resumes at the entry after it
static void positions(void)
{
    DIR *d = opendir(work);
    long start = telldir(d);
    long off[MAX_NAMES];
    char *name[MAX_NAMES];
    int n = 0, tell_is_off = 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_NAMES) {
        off[n] = (long)e->d_off;
        name[n++] = strdup(e->d_name);
        tell_is_off &= telldir(d) == (long)e->d_off;
    }
    printf("telldir after each entry is its d_off: %s\n", tell_is_off ? "yes" : "no");
    int resumes = 1;
    for (int k = n - 1; k >= 0; k--) { // backwards: every seek goes somewhere new
        seekdir(d, off[k]);
        e = readdir(d);
        resumes &= k + 1 < n ? e != NULL && strcmp(e->d_name, name[k + 1]) == 0 : e == NULL;
    }
    printf("seekdir(d_off of entry k) reads entry k+1, for all %d: %s\n", n, resumes ? "yes" : "no");
    seekdir(d, start);
    e = readdir(d);
    printf("seekdir(telldir at the start) reads the first entry: %s\n",
           e && !strcmp(e->d_name, name[0]) ? "yes" : "no");
    rewinddir(d);
    e = readdir(d);
    printf("rewinddir reads the first entry: %s\n", e && !strcmp(e->d_name, name[0]) ? "yes" : "no");
    for (int i = 0; i < n; i++)
        free(name[i]);
    closedir(d);
}

static void with_readdir_r(void)
{
    DIR *d = opendir(work);
    struct dirent entry, *result;
    struct listing l = {0};
    int err, own = 1;
    while ((err = readdir_r(d, &entry, &result)) == 0 && result != NULL && l.n < MAX_NAMES) {
        own &= result == &entry &&
               entry.d_reclen == ((offsetof(struct dirent, d_name) + strlen(entry.d_name) + 8) & ~7u);
        l.names[l.n++] = strdup(entry.d_name);
    }
    report_errnum("readdir_r at the end", err);
    printf("readdir_r: %d entries, in the caller's entry: %s\n", l.n, own ? "yes" : "no");
    sort_and_print(&l, "  ");
    closedir(d);

    d = opendir(work);
    struct dirent64 *e64 = readdir64(d);
    printf("readdir64: d_reclen is the formula: %s\n",
           e64 && e64->d_reclen == ((offsetof(struct dirent64, d_name) + strlen(e64->d_name) + 8) & ~7u)
               ? "yes"
               : "no");
    closedir(d);
}

static int visible_file(const struct dirent *e) { return e->d_name[0] != '.' && e->d_type != DT_DIR; }

static void print_scan(const char *title, int n, struct dirent **list)
{
    printf("%s: %d%s%s\n", title, n, n < 0 ? " " : "", n < 0 ? errno_name(errno) : "");
    errno = 0;
    for (int i = 0; i < n; i++) {
        printf("  %s\n", list[i]->d_name);
        free(list[i]);
    }
    if (n >= 0)
        free(list);
}

static void scanning(void)
{
    struct dirent **list;
    print_scan("scandir(files, alphasort)", scandir(work, &list, visible_file, alphasort), list);
    print_scan("scandir(files, versionsort)", scandir(work, &list, visible_file, versionsort), list);
    int dfd = open(work, O_RDONLY | O_DIRECTORY);
    print_scan("scandirat(dirfd, \"sub\", all, alphasort)", scandirat(dfd, "sub", &list, NULL, alphasort),
               list);
    close(dfd);
    print_scan("scandir(missing)", scandir(path_of("missing"), &list, NULL, alphasort), list);
    print_scan("scandir(a file)", scandir(path_of("alpha"), &list, NULL, alphasort), list);
}

static void streams_and_errors(void)
{
    int fd = open(work, O_RDONLY | O_DIRECTORY);
    DIR *d = fdopendir(fd);
    printf("fdopendir: %s, dirfd is the fd: %s\n", d ? "ok" : errno_name(errno),
           d && dirfd(d) == fd ? "yes" : "no");
    closedir(d);
    struct stat st;
    errno = 0;
    report("fstat(its fd) after closedir", fstat(fd, &st));
    int file = open(path_of("alpha"), O_RDONLY);
    errno = 0;
    printf("fdopendir(a file): %s %s\n", fdopendir(file) ? "stream" : "NULL", errno_name(errno));
    close(file);
    errno = 0;
    printf("fdopendir(closed fd): %s %s\n", fdopendir(file) ? "stream" : "NULL", errno_name(errno));
    errno = 0;
    printf("opendir(missing): %s %s\n", opendir(path_of("missing")) ? "stream" : "NULL", errno_name(errno));
    errno = 0;
    printf("opendir(a file): %s %s\n", opendir(path_of("alpha")) ? "stream" : "NULL", errno_name(errno));
    errno = 0;
    printf("opendir(\"\"): %s %s\n", opendir("") ? "stream" : "NULL", errno_name(errno));
    d = opendir(work);
    errno = 0;
    while (readdir(d) != NULL) {
    }
    printf("errno after the last readdir: %d\n", errno);
    closedir(d);
    mkdir(path_of("gone"), 0755);
    d = opendir(path_of("gone"));
    rmdir(path_of("gone"));
    int left = 0;
    while (readdir(d) != NULL)
        left++;
    printf("a directory removed after opendir lists %d entries\n", left);
    closedir(d);
    printf("DT_DIR %d DT_REG %d DT_LNK %d DT_CHR %d DT_FIFO %d; IFTODT(S_IFDIR) is DT_DIR: %d, "
           "DTTOIF(DT_REG) is S_IFREG: %d\n",
           DT_DIR, DT_REG, DT_LNK, DT_CHR, DT_FIFO, IFTODT(S_IFDIR) == DT_DIR, DTTOIF(DT_REG) == S_IFREG);
}

// rewinddir sees what changed since opendir
static void rewinding(void)
{
    DIR *d = opendir(work);
    while (readdir(d) != NULL) {
    }
    touch("late");
    unlink(path_of("file10"));
    rewinddir(d);
    list_sorted("after adding late, removing file10 and rewinddir", d);
    closedir(d);
}

// Removing each entry as it is read (rm -r) and adding files meanwhile: every entry that was
// there all along is read exactly once; whether the added ones show is unspecified.
static void changed_while_listing(void)
{
    enum { ORIGINALS = 300, EVERY = 10 };
    mkdir(path_of("many"), 0755);
    char name[128];
    for (int i = 0; i < ORIGINALS; i++) { // long names: the listing takes several fd_readdir calls
        snprintf(name, sizeof name, "many/original-%03d-padded-to-a-longer-name-for-bigger-records", i);
        touch(name);
    }
    int seen[ORIGINALS] = {0}, added = 0, others = 0;
    DIR *d = opendir(path_of("many"));
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int i;
        if (sscanf(e->d_name, "original-%d-", &i) == 1 && i >= 0 && i < ORIGINALS) {
            seen[i]++;
            snprintf(name, sizeof name, "many/%s", e->d_name);
            unlink(path_of(name));
            if (i % EVERY == 0) {
                snprintf(name, sizeof name, "many/added-%d", added++);
                touch(name);
            }
        } else if (strncmp(e->d_name, "added-", 6) != 0) {
            others++;
        }
    }
    int once = 0, twice = 0;
    for (int i = 0; i < ORIGINALS; i++) {
        once += seen[i] == 1;
        twice += seen[i] > 1;
    }
    printf("changed while listing: originals read once %d, more than once %d, never %d; others %d\n", once,
           twice, ORIGINALS - once - twice, others);
    rewinddir(d);
    list_sorted("after rewinddir", d);
    closedir(d);
    for (int i = 0; i < added; i++) {
        snprintf(name, sizeof name, "many/added-%d", i);
        unlink(path_of(name));
    }
    rmdir(path_of("many"));
}

// Threads list their own directories at once, and two threads share one stream with readdir_r.
enum { THREADS = 4, FILES = 40, ROUNDS = 10 };
static DIR *shared;
static char shared_seen[THREADS][FILES + 2][16];
static int shared_count[THREADS];

static void *list_own(void *arg)
{
    long t = (long)arg, complete = 1;
    char dir[64];
    snprintf(dir, sizeof dir, "%s/t%ld", work, t);
    for (int r = 0; r < ROUNDS; r++) {
        DIR *d = opendir(dir);
        int n = 0;
        while (readdir(d) != NULL)
            n++;
        complete &= n == FILES + 2;
        closedir(d);
    }
    return (void *)complete;
}

static void *read_shared(void *arg)
{
    long t = (long)arg;
    struct dirent entry, *result;
    while (readdir_r(shared, &entry, &result) == 0 && result != NULL && shared_count[t] < FILES + 2)
        snprintf(shared_seen[t][shared_count[t]++], 16, "%s", entry.d_name);
    return NULL;
}

static void threads(void)
{
    char name[64];
    for (long t = 0; t < THREADS; t++) {
        snprintf(name, sizeof name, "t%ld", t);
        mkdir(path_of(name), 0755);
        for (int i = 0; i < FILES; i++) {
            snprintf(name, sizeof name, "t%ld/f%d", t, i);
            touch(name);
        }
    }
    pthread_t id[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&id[t], NULL, list_own, (void *)t);
    int complete = 1;
    for (int t = 0; t < THREADS; t++) {
        void *ok;
        pthread_join(id[t], &ok);
        complete &= ok != NULL;
    }
    printf("%d threads, %d listings each of their own directory, all complete: %s\n", THREADS, ROUNDS,
           complete ? "yes" : "no");

    shared = opendir(path_of("t0"));
    for (long t = 0; t < 2; t++)
        pthread_create(&id[t], NULL, read_shared, (void *)t);
    for (int t = 0; t < 2; t++)
        pthread_join(id[t], NULL);
    closedir(shared);
    struct listing l = {0};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < shared_count[t]; i++)
            l.names[l.n++] = shared_seen[t][i];
    qsort(l.names, l.n, sizeof l.names[0], by_name);
    int repeats = 0;
    for (int i = 1; i < l.n; i++)
        repeats += strcmp(l.names[i - 1], l.names[i]) == 0;
    printf("two threads on one stream (readdir_r): %d entries, %d repeated\n", l.n, repeats);

    for (long t = 0; t < THREADS; t++) {
        for (int i = 0; i < FILES; i++) {
            snprintf(name, sizeof name, "t%ld/f%d", t, i);
            unlink(path_of(name));
        }
        snprintf(name, sizeof name, "t%ld", t);
        rmdir(path_of(name));
    }
}

int main(int argc, char **argv)
{
    snprintf(work, sizeof work, "%s/posix_dirent.%d", argc > 1 ? argv[1] : "/tmp", (int)getpid());
    if (mkdir(work, 0755) < 0) {
        perror(work);
        return 1;
    }
    const char *files[] = {"alpha", "Beta", "file1", "file2", "file10", "sub/inner", "sub/.hidden"};
    mkdir(path_of("sub"), 0755);
    for (int i = 0; i < 7; i++)
        touch(files[i]);
    symlink("alpha", path_of("link"));

    entries();
    positions();
    with_readdir_r();
    scanning();
    streams_and_errors();
    rewinding();
    changed_while_listing();
    threads();

    const char *left[] = {"alpha", "Beta", "file1", "file2", "late", "link", "sub/inner", "sub/.hidden"};
    for (int i = 0; i < 8; i++)
        unlink(path_of(left[i]));
    rmdir(path_of("sub"));
    report("cleanup: rmdir", rmdir(work));
    return 0;
}
