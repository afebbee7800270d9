/* Wasm-only test of how libc's path calls find their directory without a lock
 * (runtime/core/preopens.c, runtime/core/working_directory.c): the preopen
 * table's answers (longest prefix, the latest registered among equals, "./"
 * and "/" stripped, "." for the directory itself, ENOENT outside), and, while
 * other threads look paths up, a thread that registers preopens (the table
 * grows past several of its chunks) and one that keeps changing the working
 * directory between three of different lengths, one longer than the copy that
 * lookups read without the lock. A lookup must never see half of a change: each
 * reader opens a file by a relative name and by a registered prefix and checks
 * what it reads. Ends with "N passed, N failed". */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wasi/libc-find-relpath.h>
#include <wasi/libc.h>

#define READERS 3
#define CWD_CHANGES 3000
#define REGISTERED 300 /* past the table's first chunks (8, 16, 32, 64, 128) */

static atomic_long passed, failed;
static atomic_bool done;
static atomic_int registered; /* prefixes /p/0 .. /p/(registered-1) are in the table */

static void expect(int ok, const char *what)
{
    if (ok) {
        atomic_fetch_add(&passed, 1);
        return;
    }
    if (atomic_fetch_add(&failed, 1) < 10)
        fprintf(stderr, "FAIL %s (errno %d)\n", what, errno);
}

static void write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    expect(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text), path);
    close(fd);
}

/* The first byte of the file at `path`, or 0 where it cannot be read. */
static char first_byte(const char *path)
{
    char c = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || read(fd, &c, 1) != 1)
        c = 0;
    close(fd);
    return c;
}

static int open_dir(const char *path)
{
    mkdir(path, 0755);
    return open(path, O_RDONLY | O_DIRECTORY);
}

/* The working directories the changer moves between, each with a file "which" naming it. */
static char dirs[3][700];

static void make_dirs(void)
{
    strcpy(dirs[0], "/tmp/a");
    strcpy(dirs[1], "/tmp/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    strcpy(dirs[2], "/tmp"); /* then 6 levels of 90 characters: longer than the lock-free copy */
    expect(mkdir(dirs[0], 0755) == 0 && mkdir(dirs[1], 0755) == 0, "mkdir the short directories");
    for (int level = 0; level < 6; level++) {
        strcat(dirs[2], "/");
        size_t at = strlen(dirs[2]);
        memset(dirs[2] + at, 'c' + level, 90);
        dirs[2][at + 90] = '\0';
        expect(mkdir(dirs[2], 0755) == 0, "mkdir a level of the long directory");
    }
    for (int d = 0; d < 3; d++) {
        char path[800], text[2] = {(char)('A' + d), 0};
        snprintf(path, sizeof path, "%s/which", dirs[d]);
        write_file(path, text);
    }
}

static void *change_cwd(void *arg)
{
    (void)arg;
    for (int i = 0; i < CWD_CHANGES; i++)
        expect(chdir(dirs[i % 3]) == 0, "chdir");
    return NULL;
}

static void *register_preopens(void *arg)
{
    (void)arg;
    for (int i = 0; i < REGISTERED; i++) {
        char dir[32], prefix[32];
        snprintf(dir, sizeof dir, "/tmp/p%d", i);
        snprintf(prefix, sizeof prefix, i % 2 ? "/p/%d" : "./p/%d", i); /* "./" is stripped */
        int fd = open_dir(dir);
        char file[48], text[16];
        snprintf(file, sizeof file, "%s/f", dir);
        snprintf(text, sizeof text, "%c", 'a' + i % 26);
        write_file(file, text);
        expect(fd >= 0 && __wasilibc_register_preopened_fd(fd, prefix) == 0, "register a preopen");
        atomic_store(&registered, i + 1);
    }
    return NULL;
}

static void *look_up(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    while (!atomic_load(&done)) {
        char c = first_byte("which"); /* the cwd's own file, whichever cwd it is */
        expect(c == 'A' || c == 'B' || c == 'C', "a relative name resolves in a whole working directory");
        char cwd[800];
        expect(getcwd(cwd, sizeof cwd) != NULL &&
                   (!strcmp(cwd, dirs[0]) || !strcmp(cwd, dirs[1]) || !strcmp(cwd, dirs[2])),
               "getcwd names one of the directories");
        int n = atomic_load(&registered);
        if (n > 0) {
            seed = seed * 1103515245u + 12345u;
            int i = (int)(seed % (unsigned)n);
            char path[48];
            snprintf(path, sizeof path, "/p/%d/f", i);
            expect(first_byte(path) == 'a' + i % 26, "a registered prefix leads to its directory");
        }
    }
    return NULL;
}

/* The table's answers, one thread. */
static void check_answers(void)
{
    const char *prefix, *relative;
    expect(__wasilibc_find_abspath("/", &prefix, &relative) >= 0 && !strcmp(relative, "."),
           "the root is \".\"");
    expect(__wasilibc_find_abspath("//tmp//x", &prefix, &relative) >= 0 && !strcmp(relative, "tmp//x"),
           "leading slashes are stripped, inner ones kept");
    int outer = open_dir("/tmp/outer"), inner = open_dir("/tmp/inner"), later = open_dir("/tmp/later");
    write_file("/tmp/outer/f", "o");
    write_file("/tmp/inner/f", "i");
    write_file("/tmp/later/f", "l");
    expect(__wasilibc_register_preopened_fd(outer, "/m") == 0 &&
               __wasilibc_register_preopened_fd(inner, "/m/n/") == 0,
           "register /m and /m/n/");
    expect(first_byte("/m/f") == 'o' && first_byte("/m/n/f") == 'i', "the longest prefix holds the path");
    expect(__wasilibc_find_abspath("/m/n/", &prefix, &relative) == inner && !strcmp(relative, "."),
           "a preopen's own path is \".\" in it");
    expect(__wasilibc_find_abspath("/m/nn/f", &prefix, &relative) == outer && !strcmp(relative, "nn/f"),
           "only whole components match");
    expect(__wasilibc_register_preopened_fd(later, "./m/n/") == 0 && first_byte("/m/n/f") == 'l',
           "the latest registered wins among equals");
}

int main(void)
{
    check_answers();
    make_dirs();
    pthread_t changer, registrar, readers[READERS];
    expect(chdir(dirs[0]) == 0, "first chdir");
    for (int r = 0; r < READERS; r++)
        pthread_create(&readers[r], NULL, look_up, (void *)(uintptr_t)(r + 1));
    pthread_create(&changer, NULL, change_cwd, NULL);
    pthread_create(&registrar, NULL, register_preopens, NULL);
    pthread_join(changer, NULL);
    pthread_join(registrar, NULL);
    atomic_store(&done, true);
    for (int r = 0; r < READERS; r++)
        pthread_join(readers[r], NULL);
    expect(chdir("/") == 0 && first_byte("/p/299/f") == 'a' + 299 % 26,
           "every preopen still there at the end");
    printf("%ld passed, %ld failed\n", atomic_load(&passed), atomic_load(&failed));
    return atomic_load(&failed) == 0 ? 0 : 1;
}
