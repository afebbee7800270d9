/* Confinement of a host-directory mount (run by tests/mount.test.js with
 * --mount=/m=HOST/root --mount=/m2=HOST/root2, where HOST/outside/secret
 * holds "OUTSIDE" and HOST/root was prepared with hostile symlinks: abs ->
 * /etc, out -> ../outside/secret, dirout -> ../outside, deep -> sub/../../outside,
 * in -> sub/file). Prints one line per check. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *err(int rc)
{
    return rc >= 0            ? "ok"
           : errno == EXDEV   ? "EXDEV"
           : errno == ENOENT  ? "ENOENT"
           : errno == EACCES  ? "EACCES"
           : errno == ELOOP   ? "ELOOP"
           : errno == ENOTDIR ? "ENOTDIR"
                              : "E?";
}

static void try_open(const char *path)
{
    errno = 0;
    int fd = open(path, O_RDONLY);
    char buf[32] = {0};
    if (fd >= 0) {
        read(fd, buf, sizeof buf - 1);
        close(fd);
    }
    printf("open %s: %s%s%s\n", path, err(fd), fd >= 0 ? " " : "", buf);
}

static const char *race_path;
static atomic_int stop;
static atomic_int escaped, inside_reads, attempts;

static void *swapper(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        rename("/m/race/d", "/m/race/real");   /* d: the real directory ... */
        rename("/m/race/link", "/m/race/d");   /* ... then a symlink pointing out */
        rename("/m/race/d", "/m/race/link");
        rename("/m/race/real", "/m/race/d");
    }
    return NULL;
}

static void *opener(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3000; i++) {
        char buf[32] = {0};
        int fd = open(race_path, O_RDONLY);
        atomic_fetch_add(&attempts, 1);
        if (fd < 0)
            continue;
        read(fd, buf, sizeof buf - 1);
        close(fd);
        if (strncmp(buf, "OUTSIDE", 7) == 0)
            atomic_fetch_add(&escaped, 1);
        else
            atomic_fetch_add(&inside_reads, 1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "external-race") == 0) {
        /* another process swaps race2/d and a symlink pointing out; we only open */
        race_path = "/m/race2/d/secret";
        pthread_t o1, o2;
        pthread_create(&o1, NULL, opener, NULL);
        pthread_create(&o2, NULL, opener, NULL);
        pthread_join(o1, NULL);
        pthread_join(o2, NULL);
        printf("external race: %d opens, escaped %d\n", atomic_load(&attempts), atomic_load(&escaped));
        return 0;
    }
    try_open("/m/in");
    try_open("/m/abs/passwd");
    try_open("/m/abs");
    try_open("/m/out");
    try_open("/m/dirout/secret");
    try_open("/m/deep/secret");
    try_open("/m/sub/../../outside/secret"); /* lexical: /outside in the memory tree */
    try_open("/m/../m/sub/file");
    struct stat st;
    errno = 0;
    printf("stat dirout: %s\n", err(stat("/m/dirout", &st)));
    printf("lstat dirout: %s\n", err(lstat("/m/dirout", &st)));
    char target[64] = {0};
    printf("readlink abs: %s %s\n", err((int)readlink("/m/abs", target, sizeof target - 1)), target);
    printf("symlink pointing out: %s\n", err(symlink("../outside/secret", "/m/made")));
    try_open("/m/made");
    printf("create through dirout: %s\n", err(open("/m/dirout/new", O_CREAT | O_WRONLY, 0644)));
    printf("mkdir through abs: %s\n", err(mkdir("/m/abs/newdir", 0755)));
    printf("unlink through dirout: %s\n", err(unlink("/m/dirout/secret")));
    printf("rename through dirout: %s\n", err(rename("/m/dirout/secret", "/m/stolen")));
    printf("rename to another mount: %s\n", err(rename("/m/sub/file", "/m2/file")));
    printf("rename to memory: %s\n", err(rename("/m/sub/file", "/tmp/file")));
    printf("rename from memory: %s\n", err(rename("/tmp", "/m/tmp")));
    printf("link to another mount: %s\n", err(link("/m/sub/file", "/m2/file")));
    printf("rmdir mount point: %s\n", rmdir("/m") == 0 ? "ok" : errno == EBUSY ? "EBUSY" : "E?");

    /* rename race: one thread swaps a directory and a symlink pointing out under one name */
    race_path = "/m/race/d/secret";
    mkdir("/m/race", 0755);
    mkdir("/m/race/d", 0755);
    int fd = open("/m/race/d/secret", O_CREAT | O_WRONLY, 0644);
    write(fd, "inside", 6);
    close(fd);
    printf("race symlink: %s\n", err(symlink("../../outside", "/m/race/link")));
    pthread_t s, o1, o2;
    pthread_create(&s, NULL, swapper, NULL);
    pthread_create(&o1, NULL, opener, NULL);
    pthread_create(&o2, NULL, opener, NULL);
    pthread_join(o1, NULL);
    pthread_join(o2, NULL);
    atomic_store(&stop, 1);
    pthread_join(s, NULL);
    printf("race: %d opens, escaped %d, some inside reads: %s\n", atomic_load(&attempts),
           atomic_load(&escaped), atomic_load(&inside_reads) > 0 ? "yes" : "no");
    return 0;
}
