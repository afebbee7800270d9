/* The OPFS I/O workers' caches of directory and file handles (docs/OPFS.md, "What a worker
 * caches") must never answer for something that was renamed, removed or replaced: each step
 * below looks at paths the step before had cached, and prints what stat, unlink and rmdir say.
 *
 *   meta_cache DIR     (DIR: an empty directory on the mount)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *top;

static const char *at(const char *rel)
{
    static char path[2][512];
    static int which;
    which ^= 1;
    snprintf(path[which], sizeof path[which], "%s/%s", top, rel);
    return path[which];
}

static const char *error_name(int e)
{
    return e == ENOENT ? "ENOENT" : e == EISDIR ? "EISDIR" : e == ENOTDIR ? "ENOTDIR" : strerror(e);
}

static void show_stat(const char *rel)
{
    struct stat st;
    if (stat(at(rel), &st) != 0)
        printf("stat %s: %s\n", rel, error_name(errno));
    else if (S_ISDIR(st.st_mode))
        printf("stat %s: dir\n", rel);
    else
        printf("stat %s: file of %lld bytes\n", rel, (long long)st.st_size);
}

static void make(const char *rel, int bytes)
{
    char buf[64] = {0};
    int fd = open(at(rel), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, bytes) != bytes || close(fd) != 0)
        printf("make %s: %s\n", rel, strerror(errno));
}

static void result(const char *what, const char *rel, int rc)
{
    printf("%s%s%s: %s\n", what, *rel ? " " : "", rel, rc == 0 ? "0" : error_name(errno));
}

/* Several threads stat the files w0..w5 at once (their stats spread over the I/O workers): each
 * must see the size main gave it. */
static void *stat_files(void *arg)
{
    (void)arg;
    long wrong = 0;
    char path[512]; /* (not at(): its buffers are main's) */
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 6; i++) {
            struct stat st;
            snprintf(path, sizeof path, "%s/w%d", top, i);
            wrong += stat(path, &st) != 0 || st.st_size != 20 + i;
        }
    }
    return (void *)wrong;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: meta_cache DIR\n");
        return 2;
    }
    top = argv[1];
    /* a directory renamed: its old names are gone, the new ones are there */
    mkdir(at("d"), 0755);
    make("d/f", 10);
    show_stat("d");
    show_stat("d/f");
    result("rename d -> e", "", rename(at("d"), at("e")));
    show_stat("d");
    show_stat("d/f");
    show_stat("e");
    show_stat("e/f");
    /* a file unlinked, a directory made at its name, removed, a file made again */
    result("unlink", "e/f", unlink(at("e/f")));
    show_stat("e/f");
    result("mkdir", "e/f", mkdir(at("e/f"), 0755));
    show_stat("e/f");
    result("unlink (a directory)", "e/f", unlink(at("e/f")));
    result("rmdir", "e/f", rmdir(at("e/f")));
    show_stat("e/f");
    make("e/f", 3);
    show_stat("e/f");
    result("rmdir (a file)", "e/f", rmdir(at("e/f")));
    /* a file renamed, and another renamed over it */
    result("rename e/f -> e/g", "", rename(at("e/f"), at("e/g")));
    show_stat("e/f");
    show_stat("e/g");
    make("e/f", 5);
    show_stat("e/f");
    result("rename e/f over e/g", "", rename(at("e/f"), at("e/g")));
    show_stat("e/f");
    show_stat("e/g");
    result("unlink", "e/g", unlink(at("e/g")));
    result("unlink again", "e/g", unlink(at("e/g")));
    /* a directory removed and a file made at its name */
    result("rmdir", "e", rmdir(at("e")));
    make("e", 7);
    show_stat("e");
    result("unlink", "e", unlink(at("e")));
    /* a directory renamed away and made again: what was under it is not under the new one */
    mkdir(at("p"), 0755);
    make("p/q", 2);
    show_stat("p/q");
    result("rename p -> r", "", rename(at("p"), at("r")));
    result("mkdir", "p", mkdir(at("p"), 0755));
    show_stat("p/q");
    show_stat("r/q");
    /* files opened on every I/O worker (opens are dealt round-robin), unlinked, made again */
    char name[16];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "w%d", i);
        make(name, i + 1);
        show_stat(name);
    }
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "w%d", i);
        result("unlink", name, unlink(at(name)));
        show_stat(name);
        make(name, 20 + i);
        show_stat(name);
    }
    pthread_t threads[3];
    long wrong = 0;
    for (int i = 0; i < 3; i++)
        pthread_create(&threads[i], NULL, stat_files, NULL);
    for (int i = 0; i < 3; i++) {
        void *r;
        pthread_join(threads[i], &r);
        wrong += (long)r;
    }
    printf("3 threads x 240 stats: %ld wrong\n", wrong);
    return 0;
}
