/* Native tests of the mount layer (runtime/fs/mount/mount.c) over the POSIX
 * backend: semantics (run under ASan+UBSan) and, with an argument
 * "stress", threads on mounted files (run under TSan). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fs/test_util.h"
#include "posix_backend.h"

static char host_a[256], host_b[256];

static void host_path(char *out, const char *dir, const char *name)
{
    snprintf(out, 512, "%s/%s", dir, name);
}

static long host_read(const char *dir, const char *name, char *buf, size_t size)
{
    char p[512];
    host_path(p, dir, name);
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, buf, size);
    close(fd);
    return n;
}

static void semantics(void)
{
    char buf[300000];
    int fd = CHECK_OK(
        spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", SPINDLE_O_CREAT | SPINDLE_O_RDWR, 0644));
    for (int i = 0; i < 100; i++)
        CHECK(spindle_fs_write(fd, "0123456789", 10) == 10);
    /* written through: the host has every byte already, and every fd here sees it */
    CHECK(host_read(host_a, "hello.txt", buf, sizeof buf) == 1000);
    int fd2 = CHECK_OK(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", SPINDLE_O_RDONLY, 0));
    CHECK(spindle_fs_pread(fd2, buf, 20, 990) == 10 && memcmp(buf, "0123456789", 10) == 0);
    struct spindle_stat st;
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", &st, 0));
    CHECK(st.size == 1000 && (st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFREG && st.dev != 1);
    CHECK(spindle_fs_lseek(fd2, 0, SPINDLE_SEEK_END) == 1000);
    CHECK_OK(spindle_fs_fsync(fd));
    CHECK(host_read(host_a, "hello.txt", buf, sizeof buf) == 1000);
    /* O_APPEND: at the end, in the host at once */
    int fd3 = CHECK_OK(
        spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", SPINDLE_O_WRONLY | SPINDLE_O_APPEND, 0));
    CHECK(spindle_fs_write(fd3, "END", 3) == 3);
    CHECK(spindle_fs_pread(fd2, buf, 10, 998) == 5 && memcmp(buf, "89END", 5) == 0);
    CHECK(host_read(host_a, "hello.txt", buf, sizeof buf) == 1003);
    CHECK_OK(spindle_fs_close(fd3));
    /* a write after read-ahead: the cached bytes must not hide it */
    CHECK(spindle_fs_pread(fd2, buf, 4, 0) == 4);
    CHECK(spindle_fs_pwrite(fd, "ABCD", 4, 2) == 4);
    CHECK(spindle_fs_pread(fd2, buf, 6, 0) == 6 && memcmp(buf, "01ABCD", 6) == 0);
    /* large I/O goes straight through */
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (char)(i * 7);
    CHECK(spindle_fs_pwrite(fd, buf, sizeof buf, 5000) == (int64_t)sizeof buf);
    static char back[300000];
    CHECK(spindle_fs_pread(fd2, back, sizeof back, 5000) == (int64_t)sizeof back &&
          memcmp(buf, back, sizeof buf) == 0);
    CHECK_OK(spindle_fs_ftruncate(fd, 10));
    CHECK_OK(spindle_fs_fstat(fd2, &st));
    CHECK(st.size == 10);
    CHECK(spindle_fs_lseek(fd2, 0, SPINDLE_SEEK_SET) == 0 && spindle_fs_read(fd2, buf, 100) == 10);
    CHECK_OK(spindle_fs_close(fd));
    CHECK_OK(spindle_fs_close(fd2));

    /* directories, readdir, dirfds, .. */
    CHECK_OK(spindle_fs_mkdirat(SPINDLE_AT_FDCWD, "/mnt/a/sub", 0755));
    CHECK_ERR(spindle_fs_mkdirat(SPINDLE_AT_FDCWD, "/mnt/a/sub", 0755), SPINDLE_EEXIST);
    CHECK_ERR(spindle_fs_mkdirat(SPINDLE_AT_FDCWD, "/mnt/a", 0755), SPINDLE_EEXIST);
    int dir = CHECK_OK(
        spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/sub", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    int f = CHECK_OK(spindle_fs_openat(dir, "inner", SPINDLE_O_CREAT | SPINDLE_O_WRONLY, 0644));
    CHECK_OK(spindle_fs_close(f));
    CHECK_OK(spindle_fs_fstatat(dir, "../hello.txt", &st, 0));
    CHECK_OK(spindle_fs_fstatat(dir, "../../a/sub/inner", &st, 0));
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/sub/../../b", &st, 0));
    CHECK(st.dev != 1);
    CHECK_ERR(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/../missing", &st, 0), SPINDLE_ENOENT);
    CHECK_ERR(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/../missing/x", SPINDLE_O_RDONLY, 0),
              SPINDLE_ENOENT);
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/..", &st, 0));
    CHECK(st.dev == 1);
    CHECK_ERR(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt/", &st, 0), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/sub", SPINDLE_O_RDWR, 0), SPINDLE_EISDIR);
    struct spindle_dirent ents[16];
    int n = CHECK_OK(spindle_fs_readdir(dir, 0, ents, 16));
    CHECK(n == 3 && strcmp(ents[0].name, ".") == 0 && strcmp(ents[1].name, "..") == 0 &&
          strcmp(ents[2].name, "inner") == 0);
    CHECK(spindle_fs_readdir(dir, ents[2].next_cookie, ents, 16) == 0);
    /* what an open directory and an open file of a mount refuse (their inode tables) */
    CHECK_ERR(spindle_fs_read(dir, buf, 1), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_ftruncate(dir, 0), SPINDLE_EINVAL);
    CHECK(spindle_fs_ftype(dir) == SPINDLE_S_IFDIR && spindle_fs_lseek(dir, 0, SPINDLE_SEEK_END) == 0);
    CHECK_OK(spindle_fs_fsync(dir));
    CHECK_OK(spindle_fs_fstat(dir, &st));
    CHECK((st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR && st.dev != 1);
    f = CHECK_OK(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", SPINDLE_O_RDONLY, 0));
    CHECK_ERR(spindle_fs_readdir(f, 0, ents, 16), SPINDLE_ENOTDIR);
    CHECK(spindle_fs_ftype(f) == SPINDLE_S_IFREG);
    /* chmod reaches the backend, without setuid/setgid/sticky; chown does not */
    CHECK_OK(spindle_fs_fchmod(f, 04600));
    CHECK_OK(spindle_fs_fstat(f, &st));
    CHECK((st.mode & 07777) == 0600);
    CHECK_OK(spindle_fs_fchmodat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", 0644, 0));
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", &st, 0));
    CHECK((st.mode & 07777) == 0644);
    CHECK_ERR(spindle_fs_fchown(f, 1, 1), SPINDLE_EPERM);
    /* through /proc/self/fd: no backend walk reopens it, and it is no directory */
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", f);
    CHECK_ERR(spindle_fs_openat(SPINDLE_AT_FDCWD, proc, SPINDLE_O_RDONLY, 0), SPINDLE_ENXIO);
    snprintf(proc, sizeof proc, "/proc/self/fd/%d/x", f);
    CHECK_ERR(spindle_fs_fstatat(SPINDLE_AT_FDCWD, proc, &st, 0), SPINDLE_ENOTDIR);
    CHECK_OK(spindle_fs_close(f));
    CHECK_OK(spindle_fs_close(dir));
    int root =
        CHECK_OK(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    n = CHECK_OK(spindle_fs_readdir(root, 0, ents, 16));
    CHECK(n == 4); /* . .. hello.txt sub */
    CHECK_OK(spindle_fs_close(root));

    /* ".." after a symlink to a directory is the target's parent, as on Linux */
    CHECK_OK(spindle_fs_mkdirat(SPINDLE_AT_FDCWD, "/mnt/a/x", 0755));
    CHECK_OK(spindle_fs_mkdirat(SPINDLE_AT_FDCWD, "/mnt/a/x/y", 0755));
    CHECK_OK(spindle_fs_symlinkat("x/y", SPINDLE_AT_FDCWD, "/mnt/a/ly"));
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/ly/../y", &st, 0));
    CHECK_ERR(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/missing/../x", &st, 0), SPINDLE_ENOENT);
    CHECK_ERR(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt/../x", &st, 0), SPINDLE_ENOTDIR);
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/ly", 0));
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/x/y", SPINDLE_AT_REMOVEDIR));
    /* a directory removed while open lists nothing, not even "." and "..", as on Linux */
    int removed =
        CHECK_OK(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/x", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    CHECK(spindle_fs_readdir(removed, 0, ents, 16) == 2);
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/x", SPINDLE_AT_REMOVEDIR));
    CHECK(spindle_fs_readdir(removed, 0, ents, 16) == 0);
    CHECK_OK(spindle_fs_close(removed));

    /* names */
    CHECK_OK(spindle_fs_renameat(SPINDLE_AT_FDCWD, "/mnt/a/hello.txt", SPINDLE_AT_FDCWD, "/mnt/a/sub/moved"));
    CHECK(host_read(host_a, "sub/moved", buf, sizeof buf) == 10);
    CHECK_ERR(spindle_fs_renameat(SPINDLE_AT_FDCWD, "/mnt/a/sub/moved", SPINDLE_AT_FDCWD, "/mnt/b/moved"),
              SPINDLE_EXDEV);
    CHECK_ERR(spindle_fs_renameat(SPINDLE_AT_FDCWD, "/mnt/a/sub/moved", SPINDLE_AT_FDCWD, "/tmp/moved"),
              SPINDLE_EXDEV);
    CHECK_ERR(spindle_fs_linkat(SPINDLE_AT_FDCWD, "/mnt/a/sub/moved", SPINDLE_AT_FDCWD, "/tmp/l", 0),
              SPINDLE_EXDEV);
    CHECK_ERR(spindle_fs_linkat(SPINDLE_AT_FDCWD, "/mnt/a/sub/moved", SPINDLE_AT_FDCWD, "/mnt/b/l", 0),
              SPINDLE_EXDEV);
    CHECK_OK(spindle_fs_linkat(SPINDLE_AT_FDCWD, "/mnt/a/sub/moved", SPINDLE_AT_FDCWD, "/mnt/a/hard", 0));
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/hard", &st, 0));
    CHECK(st.nlink == 2);
    CHECK_OK(spindle_fs_symlinkat("sub/moved", SPINDLE_AT_FDCWD, "/mnt/a/sym"));
    char target[64];
    CHECK(spindle_fs_readlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sym", target, sizeof target) == 9);
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/a/sym", &st, SPINDLE_AT_SYMLINK_NOFOLLOW));
    CHECK((st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFLNK);
    CHECK_ERR(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sub", SPINDLE_AT_REMOVEDIR), SPINDLE_ENOTEMPTY);
    CHECK_ERR(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sub", 0), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/hard/", 0), SPINDLE_ENOTDIR);
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/hard", 0));
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sym", 0));
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sub/moved", 0));
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sub/inner", 0));
    CHECK_OK(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a/sub", SPINDLE_AT_REMOVEDIR));
    /* the mount points themselves */
    CHECK_ERR(spindle_fs_unlinkat(SPINDLE_AT_FDCWD, "/mnt/a", SPINDLE_AT_REMOVEDIR), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_renameat(SPINDLE_AT_FDCWD, "/mnt/a", SPINDLE_AT_FDCWD, "/mnt/c"), SPINDLE_EBUSY);
    CHECK_OK(spindle_fs_mkdirat(SPINDLE_AT_FDCWD, "/mnt/empty", 0755));
    CHECK_ERR(spindle_fs_renameat(SPINDLE_AT_FDCWD, "/mnt/empty", SPINDLE_AT_FDCWD, "/mnt/b"), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_mount("/mnt/a/x", &posix_backend, NULL), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_mount("/", &posix_backend, NULL), SPINDLE_EBUSY);
    /* a memory symlink into a mount */
    CHECK_OK(spindle_fs_symlinkat("/mnt/b", SPINDLE_AT_FDCWD, "/tmp/to-b"));
    f = CHECK_OK(
        spindle_fs_openat(SPINDLE_AT_FDCWD, "/tmp/to-b/via-link", SPINDLE_O_CREAT | SPINDLE_O_WRONLY, 0644));
    CHECK(spindle_fs_write(f, "x", 1) == 1);
    CHECK_OK(spindle_fs_close(f));
    CHECK(host_read(host_b, "via-link", buf, sizeof buf) == 1);
    /* O_SYNC: in the backend when write returns */
    f = CHECK_OK(spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/b/sync",
                                   SPINDLE_O_CREAT | SPINDLE_O_WRONLY | SPINDLE_O_SYNC, 0644));
    CHECK(spindle_fs_write(f, "abcd", 4) == 4);
    CHECK(host_read(host_b, "sync", buf, sizeof buf) == 4);
    CHECK_OK(spindle_fs_close(f));
    /* write-through: every write is in the backend when it returns, small or large, plain or
     * gathered (a writev of several buffers reaches the backend as one write) */
    f = CHECK_OK(
        spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/b/through", SPINDLE_O_CREAT | SPINDLE_O_WRONLY, 0644));
    CHECK(spindle_fs_write(f, "abc", 3) == 3);
    CHECK(host_read(host_b, "through", buf, sizeof buf) == 3);
    struct spindle_iovec parts[3] = {{(void *)"de", 2}, {(void *)"", 0}, {(void *)"fgh", 3}};
    CHECK(spindle_fs_writev(f, parts, 3) == 5);
    CHECK(host_read(host_b, "through", buf, sizeof buf) == 8 && memcmp(buf, "abcdefgh", 8) == 0);
    CHECK_OK(spindle_fs_fstatat(SPINDLE_AT_FDCWD, "/mnt/b/through", &st, 0));
    CHECK(st.size == 8);
    CHECK_OK(spindle_fs_ftruncate(f, 2));
    CHECK(host_read(host_b, "through", buf, sizeof buf) == 2);
    CHECK_OK(spindle_fs_close(f));
}

/* ---- stress: threads on their own files and on one shared file ---- */
#define THREADS 6
#define ROUNDS 2000
static int shared_fd;

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    char name[64], rec[64], back[64];
    snprintf(name, sizeof name, "/mnt/a/t%d", id);
    int fd =
        spindle_fs_openat(SPINDLE_AT_FDCWD, name, SPINDLE_O_CREAT | SPINDLE_O_RDWR | SPINDLE_O_TRUNC, 0644);
    if (fd < 0)
        return (void *)1;
    for (int r = 0; r < ROUNDS; r++) {
        int len = snprintf(rec, sizeof rec, "thread %d round %05d\n", id, r);
        if (spindle_fs_write(fd, rec, (size_t)len) != len)
            return (void *)2;
        /* the shared file: each thread owns a 32-byte slot */
        memset(rec, 'a' + id, 32);
        rec[0] = (char)('0' + r % 10);
        if (spindle_fs_pwrite(shared_fd, rec, 32, id * 32) != 32)
            return (void *)3;
        if (spindle_fs_pread(shared_fd, back, 32, id * 32) != 32 || memcmp(back, rec, 32) != 0)
            return (void *)4;
        if (r % 50 == 0) {
            struct spindle_stat st;
            if (spindle_fs_fstat(fd, &st) < 0 || spindle_fs_fsync(shared_fd) < 0)
                return (void *)5;
        }
        if (r % 97 == 0) { /* other names in the same directory meanwhile */
            char tmp[64];
            snprintf(tmp, sizeof tmp, "/mnt/a/tmp%d", id);
            int t = spindle_fs_openat(SPINDLE_AT_FDCWD, tmp, SPINDLE_O_CREAT | SPINDLE_O_WRONLY, 0644);
            spindle_fs_close(t);
            spindle_fs_unlinkat(SPINDLE_AT_FDCWD, tmp, 0);
        }
    }
    /* all threads open and close one backend file over and over: the shared
     * inode is found, freed and recreated under their feet */
    for (int r = 0; r < ROUNDS / 4; r++) {
        int c = spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/churn", SPINDLE_O_CREAT | SPINDLE_O_RDWR, 0644);
        if (c < 0)
            return (void *)7;
        char one = (char)('a' + id);
        if (spindle_fs_pwrite(c, &one, 1, id) != 1 || spindle_fs_pread(c, back, 1, id) != 1 || back[0] != one)
            return (void *)8;
        if (r % 16 == 0) {
            struct spindle_dirent ents[8];
            int d = spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
            if (d < 0 || spindle_fs_readdir(d, 0, ents, 8) < 2)
                return (void *)9;
            spindle_fs_close(d);
        }
        if (spindle_fs_close(c) < 0)
            return (void *)10;
    }
    /* read everything back through a second description */
    int fd2 = spindle_fs_openat(SPINDLE_AT_FDCWD, name, SPINDLE_O_RDONLY, 0);
    for (int r = 0; r < ROUNDS; r++) {
        int len = snprintf(rec, sizeof rec, "thread %d round %05d\n", id, r);
        if (spindle_fs_read(fd2, back, (size_t)len) != len || memcmp(back, rec, (size_t)len) != 0)
            return (void *)6;
    }
    spindle_fs_close(fd2);
    spindle_fs_close(fd);
    return NULL;
}

static void stress(void)
{
    shared_fd = CHECK_OK(
        spindle_fs_openat(SPINDLE_AT_FDCWD, "/mnt/a/shared", SPINDLE_O_CREAT | SPINDLE_O_RDWR, 0644));
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++) {
        void *rc;
        pthread_join(t[i], &rc);
        if (rc != NULL)
            fprintf(stderr, "thread %d failed at step %d\n", i, (int)(intptr_t)rc);
        CHECK(rc == NULL);
    }
    CHECK_OK(spindle_fs_close(shared_fd));
    char buf[THREADS * 32 + 1];
    CHECK(host_read(host_a, "shared", buf, sizeof buf) == THREADS * 32);
    for (int i = 0; i < THREADS; i++)
        CHECK(buf[i * 32 + 1] == 'a' + i && buf[i * 32] == '0' + (ROUNDS - 1) % 10);
}

int main(int argc, char **argv)
{
    snprintf(host_a, sizeof host_a, "/tmp/spindle-mount-a-XXXXXX");
    snprintf(host_b, sizeof host_b, "/tmp/spindle-mount-b-XXXXXX");
    if (!mkdtemp(host_a) || !mkdtemp(host_b))
        return 2;
    CHECK_OK(spindle_fs_init());
    CHECK(spindle_fs_mount("/mnt/a", &posix_backend, posix_backend_ctx(host_a)) == 0);
    CHECK(spindle_fs_mount("/mnt/b", &posix_backend, posix_backend_ctx(host_b)) == 1);
    if (argc > 1 && strcmp(argv[1], "stress") == 0)
        stress();
    else
        semantics();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", host_a, host_b);
    if (system(cmd) != 0)
        return 2;
    return report(argc > 1 ? "mount stress" : "mount semantics");
}
