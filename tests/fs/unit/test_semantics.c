/* Unit tests of the filesystem core's POSIX/Linux semantics. */
#include <stdatomic.h>
#include <time.h>

#include "../test_util.h"

#define D SPINDLE_AT_FDCWD
#define O_RD SPINDLE_O_RDONLY
#define O_WR SPINDLE_O_WRONLY
#define O_RW SPINDLE_O_RDWR
#define CREAT SPINDLE_O_CREAT

extern _Atomic long spindle_fs_fault_countdown;

static int64_t file_size(const char *path)
{
    struct spindle_stat st;
    if (spindle_fs_fstatat(D, path, &st, 0) < 0)
        return -1;
    return st.size;
}

static uint64_t file_nlink(const char *path)
{
    struct spindle_stat st;
    if (spindle_fs_fstatat(D, path, &st, SPINDLE_AT_SYMLINK_NOFOLLOW) < 0)
        return 0;
    return st.nlink;
}

static int write_file(const char *path, const char *text)
{
    int fd = spindle_fs_openat(D, path, O_WR | CREAT | SPINDLE_O_TRUNC, 0644);
    if (fd < 0)
        return fd;
    spindle_fs_write(fd, text, strlen(text));
    return spindle_fs_close(fd);
}

/* reads the whole file into buf (NUL-terminated); returns length or -errno */
static int64_t read_file(const char *path, char *buf, size_t cap)
{
    int fd = spindle_fs_openat(D, path, O_RD, 0);
    if (fd < 0)
        return fd;
    int64_t n = spindle_fs_read(fd, buf, cap - 1);
    spindle_fs_close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    return n;
}

static bool exists(const char *path)
{
    struct spindle_stat st;
    return spindle_fs_fstatat(D, path, &st, SPINDLE_AT_SYMLINK_NOFOLLOW) == 0;
}

static void test_read_write_seek(void)
{
    char buf[64];
    int fd = CHECK_OK(spindle_fs_openat(D, "/t1", O_RW | CREAT, 0644));
    CHECK(fd >= SPINDLE_FS_FIRST_FD);
    CHECK(spindle_fs_write(fd, "hello world", 11) == 11);
    CHECK(spindle_fs_lseek(fd, 0, SPINDLE_SEEK_CUR) == 11);
    CHECK(spindle_fs_lseek(fd, 6, SPINDLE_SEEK_SET) == 6);
    CHECK(spindle_fs_read(fd, buf, sizeof buf) == 5 && memcmp(buf, "world", 5) == 0);
    CHECK(spindle_fs_read(fd, buf, sizeof buf) == 0);
    CHECK(spindle_fs_pread(fd, buf, 5, 0) == 5 && memcmp(buf, "hello", 5) == 0);
    CHECK(spindle_fs_lseek(fd, 0, SPINDLE_SEEK_CUR) == 11); /* pread leaves the offset */
    CHECK(spindle_fs_pwrite(fd, "HELLO", 5, 0) == 5);
    CHECK(spindle_fs_lseek(fd, 0, SPINDLE_SEEK_CUR) == 11);
    CHECK(spindle_fs_lseek(fd, -1, SPINDLE_SEEK_END) == 10);
    CHECK_ERR(spindle_fs_lseek(fd, -100, SPINDLE_SEEK_CUR), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_lseek(fd, 0, 99), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_pread(fd, buf, 1, -1), SPINDLE_EINVAL);
    /* seek past the end and write: the gap reads as zeros */
    CHECK(spindle_fs_lseek(fd, 20, SPINDLE_SEEK_SET) == 20);
    CHECK(spindle_fs_write(fd, "!", 1) == 1);
    CHECK(file_size("/t1") == 21);
    CHECK(spindle_fs_pread(fd, buf, 21, 0) == 21);
    CHECK(memcmp(buf, "HELLO world", 11) == 0);
    bool zeros = true;
    for (int i = 11; i < 20; i++)
        zeros &= buf[i] == 0;
    CHECK(zeros && buf[20] == '!');
    /* vectored I/O */
    char a[3], b[4];
    struct spindle_iovec rv[2] = {{a, 3}, {b, 4}};
    CHECK(spindle_fs_preadv(fd, rv, 2, 0) == 7 && memcmp(a, "HEL", 3) == 0 && memcmp(b, "LO w", 4) == 0);
    struct spindle_iovec wv[2] = {{"ab", 2}, {"cde", 3}};
    CHECK(spindle_fs_lseek(fd, 0, SPINDLE_SEEK_SET) == 0);
    CHECK(spindle_fs_writev(fd, wv, 2) == 5);
    CHECK(spindle_fs_readv(fd, rv, 2) == 7 && memcmp(a, " wo", 3) == 0 && memcmp(b, "rld", 3) == 0);
    CHECK_ERR(spindle_fs_readv(fd, rv, -1), SPINDLE_EINVAL);
    CHECK(spindle_fs_fsync(fd) == 0 && spindle_fs_fdatasync(fd) == 0);
    CHECK(spindle_fs_close(fd) == 0);
    CHECK_ERR(spindle_fs_close(fd), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_read(fd, buf, 1), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_fsync(fd), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_read(1, buf, 1), SPINDLE_EBADF); /* stdio is not ours */

    /* access modes */
    fd = spindle_fs_openat(D, "/t1", O_RD, 0);
    CHECK_ERR(spindle_fs_write(fd, "x", 1), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_ftruncate(fd, 0), SPINDLE_EINVAL);
    spindle_fs_close(fd);
    fd = spindle_fs_openat(D, "/t1", O_WR, 0);
    CHECK_ERR(spindle_fs_read(fd, buf, 1), SPINDLE_EBADF);
    CHECK(spindle_fs_getfl(fd) == O_WR);
    spindle_fs_close(fd);
    CHECK_ERR(spindle_fs_openat(D, "/t1", 3, 0), SPINDLE_EINVAL);
    CHECK(spindle_fs_unlinkat(D, "/t1", 0) == 0);
}

static void test_open_flags(void)
{
    char buf[64];
    CHECK_ERR(spindle_fs_openat(D, "/of", O_RD, 0), SPINDLE_ENOENT);
    int fd = CHECK_OK(spindle_fs_openat(D, "/of", O_WR | CREAT | SPINDLE_O_EXCL, 0600));
    spindle_fs_close(fd);
    CHECK_ERR(spindle_fs_openat(D, "/of", O_WR | CREAT | SPINDLE_O_EXCL, 0600), SPINDLE_EEXIST);
    CHECK(write_file("/of", "0123456789") == 0);
    fd = spindle_fs_openat(D, "/of", O_WR | SPINDLE_O_TRUNC, 0);
    CHECK(file_size("/of") == 0);
    spindle_fs_close(fd);
    /* O_APPEND: every write lands at the end, whatever the offset */
    write_file("/of", "abc");
    int a1 = spindle_fs_openat(D, "/of", O_WR | SPINDLE_O_APPEND, 0);
    int a2 = spindle_fs_openat(D, "/of", O_RW | SPINDLE_O_APPEND, 0);
    CHECK(spindle_fs_write(a1, "1", 1) == 1);
    CHECK(spindle_fs_write(a2, "2", 1) == 1);
    CHECK(spindle_fs_lseek(a1, 0, SPINDLE_SEEK_SET) == 0);
    CHECK(spindle_fs_write(a1, "3", 1) == 1);
    CHECK(spindle_fs_pwrite(a2, "4", 1, 0) == 1); /* Linux: O_APPEND beats the offset */
    CHECK(spindle_fs_lseek(a1, 0, SPINDLE_SEEK_CUR) == 6);
    CHECK(read_file("/of", buf, sizeof buf) == 7 && strcmp(buf, "abc1234") == 0);
    CHECK(spindle_fs_getfl(a2) == (O_RW | SPINDLE_O_APPEND));
    CHECK(spindle_fs_setfl(a2, 0) == 0 && spindle_fs_getfl(a2) == O_RW);
    CHECK(spindle_fs_pwrite(a2, "Z", 1, 0) == 1);
    CHECK(read_file("/of", buf, sizeof buf) == 7 && strcmp(buf, "Zbc1234") == 0);
    spindle_fs_close(a1);
    spindle_fs_close(a2);
    /* directories */
    CHECK(spindle_fs_mkdirat(D, "/od", 0755) == 0);
    CHECK_ERR(spindle_fs_openat(D, "/of", O_RD | SPINDLE_O_DIRECTORY, 0), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_openat(D, "/od", O_WR, 0), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_openat(D, "/od", O_RD | CREAT, 0), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_openat(D, "/od", O_RD | SPINDLE_O_TRUNC, 0), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_openat(D, "/od/n", CREAT | SPINDLE_O_DIRECTORY, 0), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_openat(D, "/new/", O_WR | CREAT, 0644), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_openat(D, "/of/", O_WR | CREAT, 0644), SPINDLE_EISDIR); /* even existing */
    CHECK_ERR(spindle_fs_openat(D, "/od/", O_RD | CREAT, 0644), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_openat(D, "/of/", O_RD, 0), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_openat(D, "/", O_RD | CREAT, 0), SPINDLE_EISDIR);
    fd = CHECK_OK(spindle_fs_openat(D, "/od", O_RD | SPINDLE_O_DIRECTORY, 0));
    CHECK_ERR(spindle_fs_read(fd, buf, 1), SPINDLE_EISDIR);
    /* openat relative to a directory fd; a file fd is not a directory */
    int f2 = CHECK_OK(spindle_fs_openat(fd, "inner", O_WR | CREAT, 0644));
    CHECK(exists("/od/inner"));
    CHECK_ERR(spindle_fs_openat(f2, "x", O_RD, 0), SPINDLE_ENOTDIR);
    int abs_fd = CHECK_OK(spindle_fs_openat(f2, "/of", O_RD, 0)); /* absolute ignores dirfd */
    spindle_fs_close(abs_fd);
    CHECK_ERR(spindle_fs_openat(9999, "x", O_RD, 0), SPINDLE_EBADF);
    spindle_fs_close(f2);
    spindle_fs_close(fd);
}

static void test_holes_and_truncate(void)
{
    int fd = spindle_fs_openat(D, "/big", O_RW | CREAT, 0644);
    /* a write 1 TiB in allocates one chunk, not a terabyte */
    const int64_t far = (int64_t)1 << 40;
    CHECK(spindle_fs_pwrite(fd, "end", 3, far) == 3);
    struct spindle_stat st;
    spindle_fs_fstat(fd, &st);
    CHECK(st.size == far + 3);
    CHECK(st.blocks <= 16);
    char buf[8] = "xxxxxxx";
    CHECK(spindle_fs_pread(fd, buf, 4, far / 2) == 4 && memcmp(buf, "\0\0\0\0", 4) == 0);
    CHECK(spindle_fs_pread(fd, buf, 8, far + 1) == 2 && memcmp(buf, "nd", 2) == 0);
    CHECK_ERR(spindle_fs_pwrite(fd, "x", 1, (int64_t)1 << 50), SPINDLE_EFBIG);
    CHECK_ERR(spindle_fs_ftruncate(fd, (int64_t)1 << 50), SPINDLE_EFBIG);
    CHECK_ERR(spindle_fs_ftruncate(fd, -1), SPINDLE_EINVAL);
    /* pattern across many chunk boundaries, then shrink and regrow */
    CHECK(spindle_fs_ftruncate(fd, 0) == 0);
    enum { N = 100000 };
    static unsigned char pattern[N], back[N];
    for (int i = 0; i < N; i++)
        pattern[i] = (unsigned char)(i * 7 + (i >> 8));
    CHECK(spindle_fs_pwrite(fd, pattern, N, 123) == N);
    CHECK(spindle_fs_pread(fd, back, N, 123) == N && memcmp(back, pattern, N) == 0);
    CHECK(spindle_fs_ftruncate(fd, 5000) == 0);
    CHECK(spindle_fs_ftruncate(fd, 20000) == 0);
    CHECK(spindle_fs_pread(fd, back, N, 0) == 20000);
    bool ok = memcmp(back + 123, pattern, 5000 - 123) == 0;
    for (int i = 5000; i < 20000; i++)
        ok &= back[i] == 0;
    CHECK(ok);
    spindle_fs_fstat(fd, &st);
    CHECK(st.blocks <= 2 * 8); /* chunks past 5000 were freed */
    CHECK(spindle_fs_fallocate(fd, 30000, 10) == 0);
    CHECK(file_size("/big") == 30010);
    CHECK_ERR(spindle_fs_fallocate(fd, 0, 0), SPINDLE_EINVAL);
    spindle_fs_close(fd);
    spindle_fs_unlinkat(D, "/big", 0);

    /* a small file's first chunk grows with it (memory for tiny files) and
     * keeps its data when it becomes a full chunk and the tree deepens */
    fd = spindle_fs_openat(D, "/tiny", O_RW | CREAT, 0644);
    CHECK(spindle_fs_write(fd, "twenty bytes of data", 20) == 20);
    spindle_fs_fstat(fd, &st);
    CHECK(st.blocks == 1);
    CHECK(spindle_fs_ftruncate(fd, 3000) == 0); /* size only */
    CHECK(spindle_fs_pread(fd, back, 3000, 0) == 3000 && memcmp(back, "twenty", 6) == 0 && back[2999] == 0 &&
          back[100] == 0);
    CHECK(spindle_fs_pwrite(fd, "x", 1, 1000) == 1);
    spindle_fs_fstat(fd, &st);
    CHECK(st.blocks == 1024 / 512); /* 1001 bytes fit a 1 KiB chunk */
    CHECK(spindle_fs_pwrite(fd, "far", 3, 9000) == 3);
    CHECK(spindle_fs_pread(fd, back, 9003, 0) == 9003);
    ok = memcmp(back, "twenty bytes of data", 20) == 0 && back[1000] == 'x' &&
         memcmp(back + 9000, "far", 3) == 0;
    for (int i = 20; i < 9000; i++)
        ok &= i == 1000 || back[i] == 0;
    CHECK(ok);
    CHECK(spindle_fs_ftruncate(fd, 10) == 0 && spindle_fs_ftruncate(fd, 100) == 0);
    CHECK(spindle_fs_pread(fd, back, 100, 0) == 100 && memcmp(back, "twenty byt", 10) == 0 && back[10] == 0 &&
          back[99] == 0);
    spindle_fs_close(fd);
    spindle_fs_unlinkat(D, "/tiny", 0);
}

static void test_fd_table(void)
{
    char buf[8];
    write_file("/fdt", "abcdef");
    int fd = spindle_fs_openat(D, "/fdt", O_RD, 0);
    int dup = CHECK_OK(spindle_fs_dup(fd));
    CHECK(dup != fd);
    CHECK(spindle_fs_read(fd, buf, 2) == 2);
    CHECK(spindle_fs_read(dup, buf, 2) == 2 && memcmp(buf, "cd", 2) == 0); /* shared offset */
    int other = spindle_fs_openat(D, "/fdt", O_RD, 0);
    CHECK(spindle_fs_read(other, buf, 2) == 2 && memcmp(buf, "ab", 2) == 0); /* own offset */
    CHECK(spindle_fs_dup2(fd, other) == other);
    CHECK(spindle_fs_read(other, buf, 2) == 2 && memcmp(buf, "ef", 2) == 0);
    CHECK(spindle_fs_dup2(fd, fd) == fd);
    /* dup2 may fill fds 0-2 (a program's "redirect stderr"); new fds still start at 3 */
    CHECK(!spindle_fs_fd_in_table(1));
    CHECK(spindle_fs_dup2(fd, 1) == 1 && spindle_fs_fd_in_table(1));
    CHECK(spindle_fs_lseek(1, 0, SPINDLE_SEEK_SET) == 0);
    CHECK(spindle_fs_read(fd, buf, 2) == 2 && memcmp(buf, "ab", 2) == 0); /* shared offset */
    CHECK_OK(spindle_fs_close(1));
    CHECK(!spindle_fs_fd_in_table(1));
    CHECK_ERR(spindle_fs_dup2(fd, -1), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_dup2(fd, SPINDLE_FS_MAX_FDS), SPINDLE_EBADF);
    spindle_fs_close(other);
    spindle_fs_close(dup);
    spindle_fs_close(fd);
    /* lowest free fd is reused; EMFILE at the documented limit */
    int a = spindle_fs_openat(D, "/fdt", O_RD, 0);
    spindle_fs_close(a);
    CHECK(spindle_fs_openat(D, "/fdt", O_RD, 0) == a);
    spindle_fs_close(a);
    static int fds[SPINDLE_FS_MAX_FDS];
    int opened = 0, last = 0;
    for (;;) {
        last = spindle_fs_openat(D, "/fdt", O_RD, 0);
        if (last < 0)
            break;
        fds[opened++] = last;
    }
    CHECK(last == -SPINDLE_EMFILE);
    CHECK(opened >= SPINDLE_FS_MAX_FDS - SPINDLE_FS_FIRST_FD - 8 && opened >= 4096);
    CHECK_ERR(spindle_fs_dup(fds[0]), SPINDLE_EMFILE);
    for (int i = 0; i < opened; i++)
        spindle_fs_close(fds[i]);
    spindle_fs_unlinkat(D, "/fdt", 0);
}

/* dupfd: lowest free at or above a minimum; ftype from memory; modes and owners */
static void test_dupfd_ftype_modes(void)
{
    write_file("/dm", "x");
    int fd = spindle_fs_openat(D, "/dm", O_RD, 0);
    CHECK(spindle_fs_dupfd(fd, 100) == 100);
    CHECK(spindle_fs_dupfd(fd, 100) == 101);
    int low = CHECK_OK(spindle_fs_dupfd(fd, 0));
    CHECK(low >= SPINDLE_FS_FIRST_FD && low < 100);
    CHECK_ERR(spindle_fs_dupfd(fd, -1), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_dupfd(fd, SPINDLE_FS_MAX_FDS), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_dupfd(9999, 3), SPINDLE_EBADF);
    CHECK(spindle_fs_ftype(fd) == SPINDLE_S_IFREG);
    int dir = spindle_fs_openat(D, "/", O_RD | SPINDLE_O_DIRECTORY, 0);
    CHECK(spindle_fs_ftype(dir) == SPINDLE_S_IFDIR);
    CHECK_ERR(spindle_fs_ftype(9999), SPINDLE_EBADF);

    struct spindle_stat st;
    CHECK_OK(spindle_fs_fchmodat(D, "/dm", 04751, 0));
    CHECK(spindle_fs_fstat(fd, &st) == 0 && st.mode == (SPINDLE_S_IFREG | 04751));
    CHECK_OK(spindle_fs_fchmod(fd, 0600));
    /* the program is an ordinary user, uid/gid 1000, owning the file: only its own ids */
    CHECK_OK(spindle_fs_fchown(fd, 1000, (uint32_t)-1));
    CHECK_OK(spindle_fs_fchownat(dir, "dm", (uint32_t)-1, 1000, 0));
    CHECK_ERR(spindle_fs_fchownat(dir, "dm", (uint32_t)-1, 2000, 0), SPINDLE_EPERM);
    CHECK_ERR(spindle_fs_fchown(fd, 0, (uint32_t)-1), SPINDLE_EPERM);
    CHECK(spindle_fs_fstatat(D, "/dm", &st, 0) == 0 && st.mode == (SPINDLE_S_IFREG | 0600) &&
          st.uid == 1000 && st.gid == 1000);
    CHECK_ERR(spindle_fs_fchmodat(D, "/missing", 0644, 0), SPINDLE_ENOENT);
    /* permissions: a read-only directory takes no new name; one without x hides its names */
    CHECK_OK(spindle_fs_mkdirat(D, "/pd", 0755));
    CHECK_OK(spindle_fs_fchmodat(D, "/pd", 0555, 0));
    CHECK_ERR(spindle_fs_mkdirat(D, "/pd/x", 0755), SPINDLE_EACCES);
    CHECK_ERR(spindle_fs_openat(D, "/pd/x", O_RD | SPINDLE_O_CREAT, 0644), SPINDLE_EACCES);
    CHECK_OK(spindle_fs_fchmodat(D, "/pd", 0644, 0));
    CHECK_ERR(spindle_fs_fstatat(D, "/pd/x", &st, 0), SPINDLE_EACCES);
    CHECK_ERR(spindle_fs_faccessat(D, "/pd/x", 0, 0), SPINDLE_EACCES);
    CHECK_OK(spindle_fs_faccessat(D, "/pd", 4 | 2, 0));
    CHECK_ERR(spindle_fs_faccessat(D, "/pd", 1, 0), SPINDLE_EACCES);
    CHECK_OK(spindle_fs_fchmodat(D, "/pd", 0755, 0));
    CHECK_OK(spindle_fs_unlinkat(D, "/pd", SPINDLE_AT_REMOVEDIR));
    CHECK_ERR(spindle_fs_fchown(9999, 0, 0), SPINDLE_EBADF);
    spindle_fs_close(dir);
    spindle_fs_close(low);
    spindle_fs_close(101);
    spindle_fs_close(100);
    spindle_fs_close(fd);
    spindle_fs_unlinkat(D, "/dm", 0);
}

static void test_unlink_open_file(void)
{
    char buf[16];
    write_file("/gone", "still here");
    int fd = spindle_fs_openat(D, "/gone", O_RW, 0);
    CHECK(spindle_fs_unlinkat(D, "/gone", 0) == 0);
    CHECK(!exists("/gone"));
    CHECK(spindle_fs_read(fd, buf, sizeof buf) == 10 && memcmp(buf, "still here", 10) == 0);
    CHECK(spindle_fs_write(fd, "!", 1) == 1);
    struct spindle_stat st;
    CHECK(spindle_fs_fstat(fd, &st) == 0 && st.nlink == 0 && st.size == 11);
    CHECK(spindle_fs_close(fd) == 0);
    CHECK_ERR(spindle_fs_unlinkat(D, "/gone", 0), SPINDLE_ENOENT);
}

static void test_directories(void)
{
    CHECK(spindle_fs_mkdirat(D, "/d", 0755) == 0);
    CHECK_ERR(spindle_fs_mkdirat(D, "/d", 0755), SPINDLE_EEXIST);
    CHECK_ERR(spindle_fs_mkdirat(D, "/", 0755), SPINDLE_EEXIST);
    CHECK_ERR(spindle_fs_mkdirat(D, "/d/.", 0755), SPINDLE_EEXIST);
    CHECK_ERR(spindle_fs_mkdirat(D, "/nope/x", 0755), SPINDLE_ENOENT);
    CHECK(spindle_fs_mkdirat(D, "/d/sub/", 0755) == 0); /* trailing slash is fine */
    CHECK(file_nlink("/d") == 3);
    write_file("/d/f", "x");
    CHECK_ERR(spindle_fs_mkdirat(D, "/d/f/x", 0755), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d", SPINDLE_AT_REMOVEDIR), SPINDLE_ENOTEMPTY);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d", 0), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d/f", SPINDLE_AT_REMOVEDIR), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d/f/", 0), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_unlinkat(D, "/", SPINDLE_AT_REMOVEDIR), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d/.", SPINDLE_AT_REMOVEDIR), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d/sub/..", SPINDLE_AT_REMOVEDIR), SPINDLE_ENOTEMPTY);
    CHECK_ERR(spindle_fs_unlinkat(D, "/d", 0x1), SPINDLE_EINVAL);
    /* an open directory that is removed lists nothing and accepts nothing */
    int fd = spindle_fs_openat(D, "/d/sub", O_RD | SPINDLE_O_DIRECTORY, 0);
    CHECK(spindle_fs_unlinkat(D, "/d/sub", SPINDLE_AT_REMOVEDIR) == 0);
    CHECK(file_nlink("/d") == 2);
    struct spindle_dirent ents[4];
    CHECK(spindle_fs_readdir(fd, 0, ents, 4) == 0);
    CHECK_ERR(spindle_fs_openat(fd, "new", O_WR | CREAT, 0644), SPINDLE_ENOENT);
    CHECK_ERR(spindle_fs_mkdirat(fd, "new", 0755), SPINDLE_ENOENT);
    struct spindle_stat st;
    CHECK(spindle_fs_fstat(fd, &st) == 0 && st.nlink == 0);
    spindle_fs_close(fd);
    CHECK(spindle_fs_unlinkat(D, "/d/f", 0) == 0);
    CHECK(spindle_fs_unlinkat(D, "/d/", SPINDLE_AT_REMOVEDIR) == 0);
    CHECK(!exists("/d"));
    CHECK(exists("/tmp") && exists("/home"));
}

static void test_paths(void)
{
    char name[300], path[5000];
    spindle_fs_mkdirat(D, "/p", 0755);
    spindle_fs_mkdirat(D, "/p/q", 0755);
    write_file("/p/q/f", "data");
    CHECK(exists("/p/./q/../q/f"));
    CHECK(exists("/../../p/q/f")); /* /.. is / */
    CHECK(exists("//p///q//f"));
    struct spindle_stat root, dotdot;
    spindle_fs_fstatat(D, "/", &root, 0);
    spindle_fs_fstatat(D, "/..", &dotdot, 0);
    CHECK(root.ino == dotdot.ino && (root.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR);
    int q = spindle_fs_openat(D, "/p/q", O_RD, 0);
    CHECK(CHECK_OK(spindle_fs_fstatat(q, "../../../p/q/f", &dotdot, 0)) == 0);
    CHECK(spindle_fs_fstatat(q, "f", &dotdot, 0) == 0 && dotdot.size == 4);
    spindle_fs_close(q);
    CHECK_ERR(spindle_fs_fstatat(D, "/p/q/f/x", &root, 0), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_fstatat(D, "/p/q/f/", &root, 0), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_fstatat(D, "/p/missing/f", &root, 0), SPINDLE_ENOENT);
    CHECK_ERR(spindle_fs_fstatat(D, "", &root, 0), SPINDLE_ENOENT);
    memset(name, 'n', 256);
    name[256] = '\0';
    CHECK_ERR(spindle_fs_openat(D, name, O_WR | CREAT, 0644), SPINDLE_ENAMETOOLONG);
    name[255] = '\0';
    int fd = CHECK_OK(spindle_fs_openat(D, name, O_WR | CREAT, 0644));
    spindle_fs_close(fd);
    CHECK(spindle_fs_unlinkat(D, name, 0) == 0);
    /* 4095 characters is the longest path; 4096 is too long */
    size_t len = 0;
    path[len++] = '/';
    while (len < 4093) {
        path[len++] = '.';
        path[len++] = '/';
    }
    path[len] = '\0';
    strcat(path, "p/");
    CHECK(strlen(path) == 4095 && spindle_fs_fstatat(D, path, &root, 0) == 0);
    strcat(path, ".");
    CHECK_ERR(spindle_fs_fstatat(D, path, &root, 0), SPINDLE_ENAMETOOLONG);
}

static void test_links(void)
{
    char buf[64];
    write_file("/l1", "linked");
    CHECK(spindle_fs_linkat(D, "/l1", D, "/l2", 0) == 0);
    CHECK(file_nlink("/l1") == 2);
    struct spindle_stat a, b;
    spindle_fs_fstatat(D, "/l1", &a, 0);
    spindle_fs_fstatat(D, "/l2", &b, 0);
    CHECK(a.ino == b.ino);
    CHECK_ERR(spindle_fs_linkat(D, "/l1", D, "/l2", 0), SPINDLE_EEXIST);
    CHECK_ERR(spindle_fs_linkat(D, "/tmp", D, "/tmp2", 0), SPINDLE_EPERM);
    CHECK_ERR(spindle_fs_linkat(D, "/none", D, "/l3", 0), SPINDLE_ENOENT);
    CHECK(spindle_fs_unlinkat(D, "/l1", 0) == 0);
    CHECK(read_file("/l2", buf, sizeof buf) == 6 && strcmp(buf, "linked") == 0);
    CHECK(file_nlink("/l2") == 1);

    /* symlinks */
    CHECK(spindle_fs_symlinkat("l2", D, "/s1") == 0);
    CHECK_ERR(spindle_fs_symlinkat("x", D, "/s1"), SPINDLE_EEXIST);
    CHECK_ERR(spindle_fs_symlinkat("", D, "/s0"), SPINDLE_ENOENT);
    CHECK(read_file("/s1", buf, sizeof buf) == 6);
    CHECK(spindle_fs_readlinkat(D, "/s1", buf, sizeof buf) == 2 && memcmp(buf, "l2", 2) == 0);
    CHECK(spindle_fs_readlinkat(D, "/s1", buf, 1) == 1);
    CHECK_ERR(spindle_fs_readlinkat(D, "/l2", buf, sizeof buf), SPINDLE_EINVAL);
    spindle_fs_fstatat(D, "/s1", &a, SPINDLE_AT_SYMLINK_NOFOLLOW);
    spindle_fs_fstatat(D, "/s1", &b, 0);
    CHECK((a.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFLNK && a.size == 2);
    CHECK((b.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFREG && b.size == 6);
    CHECK_ERR(spindle_fs_openat(D, "/s1", O_RD | SPINDLE_O_NOFOLLOW, 0), SPINDLE_ELOOP);
    CHECK_ERR(spindle_fs_openat(D, "/s1", O_WR | CREAT | SPINDLE_O_NOFOLLOW, 0), SPINDLE_ELOOP);
    CHECK_ERR(spindle_fs_openat(D, "/s1", O_WR | CREAT | SPINDLE_O_EXCL, 0), SPINDLE_EEXIST);
    /* a dangling symlink with O_CREAT creates its target */
    CHECK(spindle_fs_symlinkat("/made-by-link", D, "/dangling") == 0);
    CHECK_ERR(spindle_fs_openat(D, "/dangling", O_RD, 0), SPINDLE_ENOENT);
    int fd = CHECK_OK(spindle_fs_openat(D, "/dangling", O_WR | CREAT, 0644));
    spindle_fs_close(fd);
    CHECK(exists("/made-by-link"));
    /* loops and the 40-hop limit */
    CHECK(spindle_fs_symlinkat("loop-b", D, "/loop-a") == 0);
    CHECK(spindle_fs_symlinkat("loop-a", D, "/loop-b") == 0);
    CHECK_ERR(spindle_fs_openat(D, "/loop-a", O_RD, 0), SPINDLE_ELOOP);
    CHECK_ERR(spindle_fs_fstatat(D, "/loop-a/x", &a, 0), SPINDLE_ELOOP);
    CHECK(spindle_fs_fstatat(D, "/loop-a", &a, SPINDLE_AT_SYMLINK_NOFOLLOW) == 0);
    spindle_fs_mkdirat(D, "/chain", 0755);
    char name[32], target[32];
    for (int i = 1; i <= 41; i++) { /* c1 -> c0 (a file), c2 -> c1, ... */
        snprintf(name, sizeof name, "/chain/c%d", i);
        snprintf(target, sizeof target, "c%d", i - 1);
        spindle_fs_symlinkat(target, D, name);
    }
    write_file("/chain/c0", "end");
    CHECK(file_size("/chain/c40") == 3);
    CHECK(file_size("/chain/c41") == -1);
    CHECK_ERR(spindle_fs_fstatat(D, "/chain/c41", &a, 0), SPINDLE_ELOOP);
    /* symlinks to directories in the middle of a path, relative and absolute */
    spindle_fs_mkdirat(D, "/real", 0755);
    write_file("/real/file", "r");
    spindle_fs_symlinkat("../real", D, "/chain/rel");
    spindle_fs_symlinkat("/real/", D, "/abs");
    CHECK(file_size("/chain/rel/file") == 1);
    CHECK(file_size("/abs/file") == 1);
    CHECK(file_size("/abs/../l2") == 6); /* .. of the target, not of the link */
    CHECK(spindle_fs_linkat(D, "/s1", D, "/hard-to-link", 0) == 0); /* links the symlink */
    spindle_fs_fstatat(D, "/hard-to-link", &a, SPINDLE_AT_SYMLINK_NOFOLLOW);
    CHECK((a.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFLNK);
    CHECK(spindle_fs_linkat(D, "/s1", D, "/hard-followed", SPINDLE_AT_SYMLINK_FOLLOW) == 0);
    spindle_fs_fstatat(D, "/hard-followed", &a, SPINDLE_AT_SYMLINK_NOFOLLOW);
    CHECK((a.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFREG && file_nlink("/l2") == 2);
}

static void test_rename(void)
{
    char buf[64];
    spindle_fs_mkdirat(D, "/r", 0755);
    write_file("/r/a", "A");
    write_file("/r/b", "B");
    int held = spindle_fs_openat(D, "/r/b", O_RD, 0);
    CHECK(spindle_fs_renameat(D, "/r/a", D, "/r/b") == 0);
    CHECK(!exists("/r/a"));
    CHECK(read_file("/r/b", buf, sizeof buf) == 1 && buf[0] == 'A');
    CHECK(spindle_fs_read(held, buf, 8) == 1 && buf[0] == 'B'); /* old target lives on */
    struct spindle_stat st;
    spindle_fs_fstat(held, &st);
    CHECK(st.nlink == 0);
    spindle_fs_close(held);
    CHECK_ERR(spindle_fs_renameat(D, "/r/a", D, "/r/c"), SPINDLE_ENOENT);
    CHECK(spindle_fs_renameat(D, "/r/b", D, "/r/b") == 0);
    spindle_fs_linkat(D, "/r/b", D, "/r/b2", 0);
    CHECK(spindle_fs_renameat(D, "/r/b", D, "/r/b2") == 0); /* same inode: no-op */
    CHECK(exists("/r/b") && exists("/r/b2"));
    /* directories */
    spindle_fs_mkdirat(D, "/r/d1", 0755);
    spindle_fs_mkdirat(D, "/r/d1/inner", 0755);
    spindle_fs_mkdirat(D, "/r/d2", 0755);
    spindle_fs_mkdirat(D, "/r/full", 0755);
    write_file("/r/full/x", "x");
    CHECK_ERR(spindle_fs_renameat(D, "/r/d1", D, "/r/d1/inner/d"), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_renameat(D, "/r/d1", D, "/r/d1/d"), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_renameat(D, "/r/d1/inner", D, "/r"), SPINDLE_ENOTEMPTY);
    CHECK_ERR(spindle_fs_renameat(D, "/r/d1", D, "/r/full"), SPINDLE_ENOTEMPTY);
    CHECK_ERR(spindle_fs_renameat(D, "/r/d1", D, "/r/b"), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_renameat(D, "/r/b", D, "/r/d2"), SPINDLE_EISDIR);
    CHECK_ERR(spindle_fs_renameat(D, "/r/b", D, "/r/z/"), SPINDLE_ENOTDIR);
    CHECK_ERR(spindle_fs_renameat(D, "/r/.", D, "/r/z"), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_renameat(D, "/r/d1", D, "/"), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_renameat(D, "/r/b", D, "/r/b/x"), SPINDLE_ENOTDIR);
    CHECK(spindle_fs_renameat(D, "/r/d1", D, "/r/d2") == 0); /* empty dir target replaced */
    CHECK(exists("/r/d2/inner") && !exists("/r/d1"));
    /* moving a directory elsewhere: nlink and .. follow */
    CHECK(file_nlink("/r") == 4); /* ., .., d2, full */
    CHECK(spindle_fs_renameat(D, "/r/d2", D, "/tmp/moved/") == 0);
    CHECK(file_nlink("/r") == 3);
    struct spindle_stat tmp, up;
    spindle_fs_fstatat(D, "/tmp", &tmp, 0);
    spindle_fs_fstatat(D, "/tmp/moved/inner/../..", &up, 0);
    CHECK(tmp.ino == up.ino);
    CHECK(spindle_fs_renameat(D, "/tmp/moved", D, "/r/back") == 0);
    int dfd = spindle_fs_openat(D, "/r", O_RD, 0);
    CHECK(spindle_fs_renameat(dfd, "back", dfd, "again") == 0);
    CHECK(exists("/r/again/inner"));
    spindle_fs_close(dfd);
}

static void test_timestamps(void)
{
    struct spindle_stat s1, s2, sd1, sd2;
    write_file("/ts", "a");
    spindle_fs_fstatat(D, "/ts", &s1, 0);
    spindle_fs_fstatat(D, "/", &sd1, 0);
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
    int fd = spindle_fs_openat(D, "/ts", O_WR | SPINDLE_O_APPEND, 0);
    spindle_fs_write(fd, "b", 1);
    spindle_fs_fstat(fd, &s2);
    CHECK(s2.mtim.sec * 1000000000 + s2.mtim.nsec > s1.mtim.sec * 1000000000 + s1.mtim.nsec);
    CHECK(s2.ctim.sec == s2.mtim.sec && s2.ctim.nsec == s2.mtim.nsec);
    /* explicit times, UTIME_OMIT and UTIME_NOW */
    struct spindle_timespec t[2] = {{1000, 5}, {2000, 6}};
    CHECK(spindle_fs_futimens(fd, t) == 0);
    spindle_fs_fstat(fd, &s1);
    CHECK(s1.atim.sec == 1000 && s1.atim.nsec == 5 && s1.mtim.sec == 2000 && s1.mtim.nsec == 6);
    CHECK(s1.ctim.sec > 2000);
    struct spindle_timespec omit_now[2] = {{0, SPINDLE_UTIME_OMIT}, {0, SPINDLE_UTIME_NOW}};
    CHECK(spindle_fs_utimensat(D, "/ts", omit_now, 0) == 0);
    spindle_fs_fstat(fd, &s2);
    CHECK(s2.atim.sec == 1000 && s2.mtim.sec > 2000);
    struct spindle_timespec bad[2] = {{0, 1000000000}, {0, 0}};
    CHECK_ERR(spindle_fs_futimens(fd, bad), SPINDLE_EINVAL);
    CHECK(spindle_fs_utimensat(D, "/ts", NULL, 0) == 0);
    spindle_fs_fstat(fd, &s1);
    CHECK(s1.atim.sec > 2000);
    CHECK_ERR(spindle_fs_utimensat(D, "/nonexistent", NULL, 0), SPINDLE_ENOENT);
    spindle_fs_close(fd);
    /* reading moves atime when atime is not newer than mtime (relatime) */
    t[0].sec = 10;
    t[1].sec = 20;
    spindle_fs_utimensat(D, "/ts", t, 0);
    char buf[4];
    fd = spindle_fs_openat(D, "/ts", O_RD, 0);
    spindle_fs_read(fd, buf, 1);
    spindle_fs_fstat(fd, &s1);
    CHECK(s1.atim.sec > 20 && s1.mtim.sec == 20);
    spindle_fs_close(fd);
    /* creating and removing entries changes the directory's mtime/ctime */
    nanosleep(&pause, NULL);
    spindle_fs_unlinkat(D, "/ts", 0);
    spindle_fs_fstatat(D, "/", &sd2, 0);
    CHECK(sd2.mtim.sec * 1000000000 + sd2.mtim.nsec > sd1.mtim.sec * 1000000000 + sd1.mtim.nsec);
    /* link changes the inode's ctime; the symlink's own times with NOFOLLOW */
    write_file("/ts2", "x");
    spindle_fs_utimensat(D, "/ts2", t, 0);
    spindle_fs_fstatat(D, "/ts2", &s1, 0);
    spindle_fs_symlinkat("/ts2", D, "/ts-link");
    spindle_fs_utimensat(D, "/ts-link", t, SPINDLE_AT_SYMLINK_NOFOLLOW);
    spindle_fs_fstatat(D, "/ts-link", &s2, SPINDLE_AT_SYMLINK_NOFOLLOW);
    CHECK(s2.mtim.sec == 20);
}

static void test_readdir(void)
{
    spindle_fs_mkdirat(D, "/many", 0755);
    int dir = spindle_fs_openat(D, "/many", O_RD | SPINDLE_O_DIRECTORY, 0);
    char name[32];
    enum { N = 100000 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int made = 0;
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "entry-%d", i);
        int fd = spindle_fs_openat(dir, name, O_WR | CREAT | SPINDLE_O_EXCL, 0644);
        made += fd >= 0;
        spindle_fs_close(fd);
    }
    int found = 0;
    struct spindle_stat st;
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "entry-%d", (i * 7919) % N);
        found += spindle_fs_fstatat(dir, name, &st, 0) == 0;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("readdir: created and looked up %d entries in %.3f s\n", N, secs);
    CHECK(made == N && found == N);
    CHECK(secs < 10.0);
    /* list in small batches while removing every other entry ahead of the
     * cursor: every survivor appears exactly once, nothing twice */
    static unsigned char seen[N];
    memset(seen, 0, sizeof seen);
    struct spindle_dirent ents[64];
    uint64_t cookie = 0;
    int dots = 0, dupes = 0, batches = 0;
    for (;;) {
        int n = spindle_fs_readdir(dir, cookie, ents, 64);
        if (n <= 0)
            break;
        for (int i = 0; i < n; i++) {
            int idx;
            if (strcmp(ents[i].name, ".") == 0 || strcmp(ents[i].name, "..") == 0)
                dots++;
            else if (sscanf(ents[i].name, "entry-%d", &idx) == 1 && idx >= 0 && idx < N)
                dupes += seen[idx]++ > 0;
            cookie = ents[i].next_cookie;
        }
        if (batches++ == 10) { /* remove odd entries, add new ones */
            for (int i = 1; i < N; i += 2) {
                snprintf(name, sizeof name, "entry-%d", i);
                spindle_fs_unlinkat(dir, name, 0);
            }
            for (int i = 0; i < 100; i++) {
                snprintf(name, sizeof name, "late-%d", i);
                spindle_fs_close(spindle_fs_openat(dir, name, O_WR | CREAT, 0644));
            }
        }
    }
    int evens = 0;
    for (int i = 0; i < N; i += 2)
        evens += seen[i] == 1;
    CHECK(dots == 2 && dupes == 0 && evens == N / 2);
    CHECK(ents[0].type == SPINDLE_DT_REG || ents[0].type == SPINDLE_DT_DIR);
    /* the directory can be emptied and removed */
    for (int i = 0; i < N; i += 2) {
        snprintf(name, sizeof name, "entry-%d", i);
        spindle_fs_unlinkat(dir, name, 0);
    }
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "late-%d", i);
        spindle_fs_unlinkat(dir, name, 0);
    }
    CHECK(spindle_fs_readdir(dir, 0, ents, 64) == 2);
    CHECK_ERR(spindle_fs_readdir(9999, 0, ents, 64), SPINDLE_EBADF);
    spindle_fs_close(dir);
    CHECK(spindle_fs_unlinkat(D, "/many", SPINDLE_AT_REMOVEDIR) == 0);
    int file = spindle_fs_openat(D, "/l2", O_RD, 0);
    CHECK_ERR(spindle_fs_readdir(file, 0, ents, 1), SPINDLE_ENOTDIR);
    spindle_fs_close(file);
}

/* Newest first, as Linux's tmpfs: "." and "..", then the names from the last created; a
 * listing resumed from a cookie goes on with older names, and a name created meanwhile is
 * not among them. */
static void test_readdir_order(void)
{
    spindle_fs_mkdirat(D, "/order", 0755);
    int dir = spindle_fs_openat(D, "/order", O_RD | SPINDLE_O_DIRECTORY, 0);
    const char *names[] = {"a", "c", "b"};
    for (int i = 0; i < 3; i++)
        spindle_fs_close(spindle_fs_openat(dir, names[i], O_WR | CREAT, 0644));
    struct spindle_dirent ents[8];
    CHECK(spindle_fs_readdir(dir, 0, ents, 3) == 3);
    CHECK(strcmp(ents[0].name, ".") == 0 && strcmp(ents[1].name, "..") == 0 &&
          strcmp(ents[2].name, "b") == 0);
    spindle_fs_close(spindle_fs_openat(dir, "late", O_WR | CREAT, 0644));
    CHECK(spindle_fs_readdir(dir, ents[2].next_cookie, ents, 8) == 2);
    CHECK(strcmp(ents[0].name, "c") == 0 && strcmp(ents[1].name, "a") == 0);
    CHECK(spindle_fs_readdir(dir, 2, ents, 8) == 4 && strcmp(ents[0].name, "late") == 0);
    for (int i = 0; i < 3; i++)
        spindle_fs_unlinkat(dir, names[i], 0);
    spindle_fs_unlinkat(dir, "late", 0);
    spindle_fs_close(dir);
    CHECK(spindle_fs_unlinkat(D, "/order", SPINDLE_AT_REMOVEDIR) == 0);
}

/* Describes the visible state of /fi so a failed operation can be shown to
 * have changed nothing. */
static void snapshot(char *out, size_t cap)
{
    out[0] = '\0';
    int dir = spindle_fs_openat(D, "/fi", O_RD, 0);
    struct spindle_dirent ents[32];
    int n = spindle_fs_readdir(dir, 0, ents, 32);
    for (int i = 0; i < n; i++) {
        char line[400], path[300];
        struct spindle_stat st;
        snprintf(path, sizeof path, "/fi/%s", ents[i].name);
        spindle_fs_fstatat(D, path, &st, SPINDLE_AT_SYMLINK_NOFOLLOW);
        snprintf(line, sizeof line, "%s:%o:%lld:%llu;", ents[i].name, st.mode, (long long)st.size,
                 (unsigned long long)st.nlink);
        strncat(out, line, cap - strlen(out) - 1);
    }
    spindle_fs_close(dir);
}

static int run_op(int op)
{
    static char big[20000];
    int fd, rc;
    switch (op) {
    case 0:
        fd = spindle_fs_openat(D, "/fi/new", O_WR | CREAT | SPINDLE_O_EXCL, 0644);
        if (fd >= 0)
            spindle_fs_close(fd);
        return fd;
    case 1:
        return spindle_fs_mkdirat(D, "/fi/dir", 0755);
    case 2:
        return spindle_fs_symlinkat("target", D, "/fi/sym");
    case 3:
        return spindle_fs_linkat(D, "/fi/base", D, "/fi/hard", 0);
    case 4:
        return spindle_fs_renameat(D, "/fi/base", D, "/fi/renamed");
    case 5:
        return spindle_fs_renameat(D, "/fi/base", D, "/tmp/moved-base");
    case 6:
        fd = spindle_fs_openat(D, "/fi/base", O_WR, 0);
        if (fd < 0)
            return fd;
        rc = (int)spindle_fs_pwrite(fd, big, sizeof big, 0);
        spindle_fs_close(fd);
        return rc < 0 ? rc : 0;
    default:
        return spindle_fs_dup(3);
    }
}

static void undo_op(int op)
{
    switch (op) {
    case 0:
        spindle_fs_unlinkat(D, "/fi/new", 0);
        break;
    case 1:
        spindle_fs_unlinkat(D, "/fi/dir", SPINDLE_AT_REMOVEDIR);
        break;
    case 2:
        spindle_fs_unlinkat(D, "/fi/sym", 0);
        break;
    case 3:
        spindle_fs_unlinkat(D, "/fi/hard", 0);
        break;
    case 4:
        spindle_fs_renameat(D, "/fi/renamed", D, "/fi/base");
        break;
    case 5:
        spindle_fs_renameat(D, "/tmp/moved-base", D, "/fi/base");
        break;
    }
}

static void test_out_of_memory(void)
{
    spindle_fs_mkdirat(D, "/fi", 0755);
    write_file("/fi/base", "base");
    for (int op = 0; op <= 6; op++) {
        int clean = 1, eventually_ok = 0;
        for (long budget = 0; budget < 40 && !eventually_ok; budget++) {
            char before[4096], after[4096];
            snapshot(before, sizeof before);
            atomic_store(&spindle_fs_fault_countdown, budget);
            int rc = run_op(op);
            atomic_store(&spindle_fs_fault_countdown, -1);
            snapshot(after, sizeof after);
            if (rc >= 0) {
                eventually_ok = 1;
                undo_op(op);
            } else if (rc != -SPINDLE_ENOSPC && rc != -SPINDLE_ENOMEM) {
                clean = 0;
                fprintf(stderr, "op %d budget %ld: unexpected %d\n", op, budget, rc);
            } else if (strcmp(before, after) != 0) {
                clean = 0;
                fprintf(stderr, "op %d budget %ld changed state:\n %s\n %s\n", op, budget, before, after);
            }
        }
        CHECK(clean && eventually_ok);
    }
}

/* Giving space back must never need memory. */
static void test_release_without_memory(void)
{
    spindle_fs_mkdirat(D, "/nomem", 0755);
    spindle_fs_mkdirat(D, "/nomem/sub", 0755);
    write_file("/nomem/a", "aaaa");
    write_file("/nomem/b", "bbbb");
    int fd = spindle_fs_openat(D, "/nomem/a", O_RW, 0);
    atomic_store(&spindle_fs_fault_countdown, 0); /* every allocation fails */
    CHECK(spindle_fs_renameat(D, "/nomem/b", D, "/nomem/a") == 0); /* replace: no new entry */
    CHECK_ERR(spindle_fs_renameat(D, "/nomem/a", D, "/nomem/fresh"), SPINDLE_ENOSPC);
    CHECK(spindle_fs_ftruncate(fd, 0) == 0);
    CHECK(spindle_fs_unlinkat(D, "/nomem/a", 0) == 0);
    CHECK(spindle_fs_close(fd) == 0);
    CHECK(spindle_fs_unlinkat(D, "/nomem/sub", SPINDLE_AT_REMOVEDIR) == 0);
    CHECK_ERR(spindle_fs_openat(D, "/nomem/new", O_WR | CREAT, 0644), SPINDLE_ENOMEM);
    CHECK_ERR(spindle_fs_mkdirat(D, "/nomem/new", 0755), SPINDLE_ENOSPC);
    atomic_store(&spindle_fs_fault_countdown, -1);
    CHECK(spindle_fs_unlinkat(D, "/nomem", SPINDLE_AT_REMOVEDIR) == 0);
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    CHECK(spindle_fs_init() == 0);
    test_read_write_seek();
    test_open_flags();
    test_holes_and_truncate();
    test_fd_table();
    test_dupfd_ftype_modes();
    test_unlink_open_file();
    test_directories();
    test_paths();
    test_links();
    test_rename();
    test_timestamps();
    test_readdir();
    test_readdir_order();
    test_out_of_memory();
    test_release_without_memory();
    return report("fs semantics");
}
