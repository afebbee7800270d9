/* Unit tests of pipes, poll readiness, advisory locks and /dev in the
 * filesystem core, with allocation-failure injection for pipe() and locks. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "../test_util.h"

#define D SPINDLE_AT_FDCWD

extern _Atomic long spindle_fs_fault_countdown;

static int64_t monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static short poll_one(int fd, short events, int64_t timeout_ns)
{
    struct spindle_pollfd p = {fd, events, 0};
    spindle_fs_poll(&p, 1, timeout_ns);
    return p.revents;
}

static void test_pipe_basics(void)
{
    int p[2];
    char buf[16];
    CHECK_OK(spindle_fs_pipe(p, 0));
    CHECK(p[0] >= SPINDLE_FS_FIRST_FD && p[1] == p[0] + 1);
    struct spindle_stat st;
    CHECK_OK(spindle_fs_fstat(p[0], &st));
    CHECK((st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFIFO && st.size == 0);
    CHECK(spindle_fs_getfl(p[0]) == SPINDLE_O_RDONLY && spindle_fs_getfl(p[1]) == SPINDLE_O_WRONLY);
    CHECK(spindle_fs_write(p[1], "hello", 5) == 5);
    CHECK(spindle_fs_read(p[0], buf, 3) == 3 && memcmp(buf, "hel", 3) == 0);
    CHECK(spindle_fs_read(p[0], buf, 16) == 2 && memcmp(buf, "lo", 2) == 0);
    CHECK_ERR(spindle_fs_lseek(p[0], 0, SPINDLE_SEEK_SET), SPINDLE_ESPIPE);
    CHECK_ERR(spindle_fs_pread(p[0], buf, 1, 0), SPINDLE_ESPIPE);
    CHECK_ERR(spindle_fs_pwrite(p[1], buf, 1, 0), SPINDLE_ESPIPE);
    CHECK_ERR(spindle_fs_write(p[0], "x", 1), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_read(p[1], buf, 1), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_ftruncate(p[1], 0), SPINDLE_EINVAL);
    CHECK_ERR(spindle_fs_pipe(p, SPINDLE_O_APPEND), SPINDLE_EINVAL);

    /* EOF only once every description of the write end is gone (a dup shares one) */
    int w2 = CHECK_OK(spindle_fs_dup(p[1]));
    CHECK_OK(spindle_fs_close(p[1]));
    CHECK_OK(spindle_fs_setfl(p[0], SPINDLE_O_NONBLOCK));
    CHECK_ERR(spindle_fs_read(p[0], buf, 1), SPINDLE_EAGAIN); /* a writer is left */
    CHECK(spindle_fs_write(w2, "z", 1) == 1);
    CHECK_OK(spindle_fs_close(w2));
    CHECK(spindle_fs_read(p[0], buf, 16) == 1 && buf[0] == 'z');
    CHECK(spindle_fs_read(p[0], buf, 16) == 0);
    CHECK(poll_one(p[0], SPINDLE_POLLIN, 0) == SPINDLE_POLLHUP);
    CHECK_OK(spindle_fs_close(p[0]));

    /* EPIPE without a reader; POLLERR on the write end */
    CHECK_OK(spindle_fs_pipe(p, SPINDLE_O_NONBLOCK));
    CHECK_OK(spindle_fs_close(p[0]));
    CHECK_ERR(spindle_fs_write(p[1], "x", 1), SPINDLE_EPIPE);
    CHECK(spindle_fs_write(p[1], "x", 0) == 0);
    CHECK(poll_one(p[1], SPINDLE_POLLOUT, 0) == (SPINDLE_POLLOUT | SPINDLE_POLLERR));
    CHECK_OK(spindle_fs_close(p[1]));
}

static void test_pipe_capacity(void)
{
    int p[2];
    static char block[5000];
    CHECK_OK(spindle_fs_pipe(p, SPINDLE_O_NONBLOCK));
    int64_t stored = 0, n;
    while ((n = spindle_fs_write(p[1], block, 1024)) > 0)
        stored += n;
    CHECK(stored == SPINDLE_PIPE_CAPACITY && n == -SPINDLE_EAGAIN);
    CHECK(poll_one(p[1], SPINDLE_POLLOUT, 0) == 0);
    CHECK(spindle_fs_read(p[0], block, 100) == 100);
    /* a small write goes in whole or not at all; a big one takes what fits */
    CHECK_ERR(spindle_fs_write(p[1], block, 200), SPINDLE_EAGAIN);
    CHECK(spindle_fs_write(p[1], block, 4097) == 100);
    CHECK_ERR(spindle_fs_write(p[1], block, 4097), SPINDLE_EAGAIN);
    CHECK_OK(spindle_fs_close(p[0]));
    CHECK_OK(spindle_fs_close(p[1]));
}

/* F_SETPIPE_SZ: rounding, the limits, and bytes that wrap around the ring's end staying in
 * order when it moves; an allocation failure changes nothing. */
static void test_pipe_resize(void)
{
    int p[2];
    static char block[SPINDLE_PIPE_CAPACITY], back[SPINDLE_PIPE_CAPACITY];
    for (size_t i = 0; i < sizeof block; i++)
        block[i] = (char)(i * 7 % 253);
    CHECK_OK(spindle_fs_pipe(p, SPINDLE_O_NONBLOCK));
    CHECK(spindle_fs_get_pipe_size(p[0]) == SPINDLE_PIPE_CAPACITY);
    CHECK(spindle_fs_set_pipe_size(p[1], 1) == SPINDLE_PIPE_BUF);
    CHECK(spindle_fs_set_pipe_size(p[1], 5000) == 8192);
    CHECK(spindle_fs_write(p[1], block, 6000) == 6000);
    CHECK(spindle_fs_read(p[0], back, 5000) == 5000);
    CHECK(spindle_fs_write(p[1], block + 6000, 6000) == 6000); /* wraps: head 5000, 7000 held */
    CHECK_ERR(spindle_fs_set_pipe_size(p[1], 4096), SPINDLE_EBUSY);
    CHECK_ERR(spindle_fs_set_pipe_size(p[1], SPINDLE_PIPE_MAX_SIZE + 1), SPINDLE_EPERM);
    CHECK_ERR(spindle_fs_set_pipe_size(p[1], 0x80000001u), SPINDLE_EINVAL);
    atomic_store(&spindle_fs_fault_countdown, 0);
    CHECK_ERR(spindle_fs_set_pipe_size(p[1], 16384), SPINDLE_ENOMEM);
    atomic_store(&spindle_fs_fault_countdown, -1);
    CHECK(spindle_fs_get_pipe_size(p[1]) == 8192);
    CHECK(spindle_fs_read(p[0], back + 5000, 3000) == 3000);
    CHECK(spindle_fs_set_pipe_size(p[0], 4096) == 4096); /* the 4000 left move */
    CHECK(spindle_fs_write(p[1], block + 12000, 4097) == 96); /* a big write takes what fits */
    CHECK(spindle_fs_read(p[0], back + 8000, 8192) == 4096);
    CHECK(memcmp(back, block, 12096) == 0);
    int dir = CHECK_OK(spindle_fs_openat(D, "/", SPINDLE_O_RDONLY, 0));
    CHECK_ERR(spindle_fs_get_pipe_size(dir), SPINDLE_EBADF);
    CHECK_ERR(spindle_fs_set_pipe_size(dir, 4096), SPINDLE_EBADF);
    CHECK_OK(spindle_fs_close(dir));
    CHECK_OK(spindle_fs_close(p[0]));
    CHECK_OK(spindle_fs_close(p[1]));
    CHECK_ERR(spindle_fs_get_pipe_size(p[0]), SPINDLE_EBADF);
}

struct delayed_write {
    int fd;
    int delay_ms;
};

static void *write_after(void *arg)
{
    struct delayed_write *d = arg;
    struct timespec pause = {0, (long)d->delay_ms * 1000000};
    nanosleep(&pause, NULL);
    spindle_fs_write(d->fd, "!", 1);
    return NULL;
}

static void test_poll(void)
{
    int p[2];
    CHECK_OK(spindle_fs_pipe(p, 0));
    int file = CHECK_OK(spindle_fs_openat(D, "/tmp/poll-file", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644));
    struct spindle_pollfd set[5] = {{p[0], SPINDLE_POLLIN, 9},
                                    {p[1], SPINDLE_POLLOUT, 9},
                                    {file, SPINDLE_POLLIN | SPINDLE_POLLOUT, 9},
                                    {-1, SPINDLE_POLLIN, 9},
                                    {4000, SPINDLE_POLLIN, 9}};
    CHECK(spindle_fs_poll(set, 5, 0) == 3);
    CHECK(set[0].revents == 0 && set[1].revents == SPINDLE_POLLOUT);
    CHECK(set[2].revents == (SPINDLE_POLLIN | SPINDLE_POLLOUT) && set[3].revents == 0);
    CHECK(set[4].revents == SPINDLE_POLLNVAL);
    struct spindle_pollfd stdio = {1, SPINDLE_POLLOUT, 9};
    CHECK(spindle_fs_poll(&stdio, 1, 0) == 0 && stdio.revents == 0); /* the caller's to answer */
    CHECK_ERR(spindle_fs_poll(set, -1, 0), SPINDLE_EINVAL);

    int64_t t0 = monotonic_ms();
    CHECK(poll_one(p[0], SPINDLE_POLLIN, 30 * 1000000LL) == 0);
    CHECK(monotonic_ms() - t0 >= 29); /* the timeout is honoured */

    pthread_t t;
    struct delayed_write d = {p[1], 20};
    pthread_create(&t, NULL, write_after, &d);
    CHECK(poll_one(p[0], SPINDLE_POLLIN, -1) == SPINDLE_POLLIN); /* woken by the write */
    pthread_join(t, NULL);
    CHECK_OK(spindle_fs_close(p[0]));
    CHECK_OK(spindle_fs_close(p[1]));
    CHECK_OK(spindle_fs_close(file));
}

static int lock(int fd, enum spindle_lock_owner owner, int type, int64_t start, int64_t len)
{
    struct spindle_flock l = {(int16_t)type, SPINDLE_SEEK_SET, start, len, 0};
    return spindle_fs_setlk(fd, owner, &l, 0);
}

/* the conflicting lock get reports for a write lock over [start, start+len) */
static struct spindle_flock probe(int fd, enum spindle_lock_owner owner, int64_t start, int64_t len)
{
    struct spindle_flock l = {SPINDLE_F_WRLCK, SPINDLE_SEEK_SET, start, len, 0};
    spindle_fs_getlk(fd, owner, &l);
    return l;
}

static void test_record_locks(void)
{
    const enum spindle_lock_owner OFD = SPINDLE_LOCK_DESCRIPTION, PROC = SPINDLE_LOCK_PROCESS;
    int a = CHECK_OK(spindle_fs_openat(D, "/tmp/locks", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644));
    int b = CHECK_OK(spindle_fs_openat(D, "/tmp/locks", SPINDLE_O_RDWR, 0));
    int ro = CHECK_OK(spindle_fs_openat(D, "/tmp/locks", SPINDLE_O_RDONLY, 0));

    /* classic: one owner */
    CHECK_OK(lock(a, PROC, SPINDLE_F_WRLCK, 0, 100));
    CHECK_OK(lock(b, PROC, SPINDLE_F_WRLCK, 50, 10));
    CHECK(probe(b, PROC, 0, 0).type == SPINDLE_F_UNLCK);
    struct spindle_flock seen = probe(b, OFD, 0, 0);
    CHECK(seen.type == SPINDLE_F_WRLCK && seen.start == 0 && seen.len == 100 && seen.pid == SPINDLE_LOCK_PID);
    CHECK_ERR(lock(b, OFD, SPINDLE_F_RDLCK, 99, 1), SPINDLE_EAGAIN);
    CHECK_OK(spindle_fs_close(ro)); /* any close drops the classic locks */
    CHECK(probe(b, OFD, 0, 0).type == SPINDLE_F_UNLCK);
    CHECK_ERR(lock(a + 1000, PROC, SPINDLE_F_RDLCK, 0, 1), SPINDLE_EBADF);

    /* OFD: split, downgrade, merge, to-the-end, negative lengths */
    CHECK_OK(lock(a, OFD, SPINDLE_F_WRLCK, 0, 100));
    CHECK_OK(lock(a, OFD, SPINDLE_F_UNLCK, 40, 20));
    CHECK_OK(lock(b, OFD, SPINDLE_F_WRLCK, 40, 20));
    seen = probe(b, OFD, 0, 0); /* b's own lock never shows */
    CHECK(seen.type == SPINDLE_F_WRLCK && seen.start == 0 && seen.len == 40 && seen.pid == -1);
    seen = probe(b, OFD, 50, 100);
    CHECK(seen.start == 60 && seen.len == 40);
    CHECK_OK(lock(a, OFD, SPINDLE_F_RDLCK, 60, 40));
    CHECK_OK(lock(b, OFD, SPINDLE_F_RDLCK, 70, 5));
    CHECK_ERR(lock(b, OFD, SPINDLE_F_WRLCK, 99, 1), SPINDLE_EAGAIN);
    CHECK_OK(lock(a, OFD, SPINDLE_F_UNLCK, 0, 0));
    CHECK_OK(lock(b, OFD, SPINDLE_F_UNLCK, 0, 0));
    CHECK_OK(lock(a, OFD, SPINDLE_F_RDLCK, 200, 10));
    CHECK_OK(lock(a, OFD, SPINDLE_F_RDLCK, 210, 10));
    CHECK_OK(lock(a, OFD, SPINDLE_F_RDLCK, 190, 10));
    seen = probe(b, OFD, 0, 0);
    CHECK(seen.type == SPINDLE_F_RDLCK && seen.start == 190 && seen.len == 30);
    CHECK_OK(lock(a, OFD, SPINDLE_F_WRLCK, 205, 1)); /* a write lock inside: three pieces */
    seen = probe(b, OFD, 206, 100);
    CHECK(seen.type == SPINDLE_F_RDLCK && seen.start == 206 && seen.len == 14);
    CHECK_OK(lock(a, OFD, SPINDLE_F_WRLCK, 1000, 0));
    seen = probe(b, OFD, 1LL << 50, 1);
    CHECK(seen.start == 1000 && seen.len == 0);
    struct spindle_flock back = {SPINDLE_F_WRLCK, SPINDLE_SEEK_SET, 10, -4, 0}; /* bytes 6..9 */
    CHECK_OK(spindle_fs_setlk(b, OFD, &back, 0));
    seen = probe(a, OFD, 0, 100);
    CHECK(seen.start == 6 && seen.len == 4);
    back.start = 2;
    back.len = -4;
    CHECK_ERR(spindle_fs_setlk(b, OFD, &back, 0), SPINDLE_EINVAL);
    back.type = 9;
    CHECK_ERR(spindle_fs_setlk(b, OFD, &back, 0), SPINDLE_EINVAL);

    /* the description's last close drops its OFD locks; a dup keeps them */
    int a2 = CHECK_OK(spindle_fs_dup(a));
    CHECK_OK(spindle_fs_close(a));
    CHECK_ERR(lock(b, OFD, SPINDLE_F_WRLCK, 1000, 1), SPINDLE_EAGAIN);
    CHECK_OK(spindle_fs_close(a2));
    CHECK_OK(lock(b, OFD, SPINDLE_F_WRLCK, 0, 0));

    int r = CHECK_OK(spindle_fs_openat(D, "/tmp/locks", SPINDLE_O_RDONLY, 0));
    CHECK_ERR(lock(r, OFD, SPINDLE_F_WRLCK, 0, 1), SPINDLE_EBADF);
    CHECK_OK(spindle_fs_close(r));
    CHECK_OK(spindle_fs_close(b));
}

static void test_flock(void)
{
    const enum spindle_lock_owner FL = SPINDLE_LOCK_FLOCK;
    int a = CHECK_OK(spindle_fs_openat(D, "/tmp/flock", SPINDLE_O_RDONLY | SPINDLE_O_CREAT, 0644));
    int b = CHECK_OK(spindle_fs_openat(D, "/tmp/flock", SPINDLE_O_RDONLY, 0));
    CHECK_OK(lock(a, FL, SPINDLE_F_WRLCK, 0, 0)); /* any access mode */
    CHECK_ERR(lock(b, FL, SPINDLE_F_RDLCK, 0, 0), SPINDLE_EAGAIN);
    CHECK_OK(lock(b, SPINDLE_LOCK_DESCRIPTION, SPINDLE_F_RDLCK, 0, 0)); /* another lock space */
    CHECK_OK(lock(a, FL, SPINDLE_F_RDLCK, 0, 0));
    CHECK_OK(lock(b, FL, SPINDLE_F_RDLCK, 0, 0));
    CHECK_OK(spindle_fs_close(a));
    CHECK_OK(lock(b, FL, SPINDLE_F_WRLCK, 0, 0));
    CHECK_OK(spindle_fs_close(b));
}

static void test_devices(void)
{
    char buf[8] = "xxxxxxx";
    int null = CHECK_OK(spindle_fs_openat(D, "/dev/null", SPINDLE_O_RDWR | SPINDLE_O_TRUNC, 0));
    CHECK(spindle_fs_read(null, buf, 8) == 0 && spindle_fs_write(null, buf, 8) == 8);
    CHECK(spindle_fs_lseek(null, 10, SPINDLE_SEEK_SET) == 0);
    struct spindle_stat st;
    CHECK_OK(spindle_fs_fstat(null, &st));
    CHECK((st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFCHR);
    CHECK_OK(spindle_fs_close(null));
    int full = CHECK_OK(spindle_fs_openat(D, "/dev/full", SPINDLE_O_RDWR, 0));
    CHECK(spindle_fs_read(full, buf, 8) == 8 && buf[0] == 0 && buf[7] == 0);
    CHECK_ERR(spindle_fs_write(full, buf, 8), SPINDLE_ENOSPC);
    CHECK_OK(spindle_fs_close(full));
    int dev = CHECK_OK(spindle_fs_openat(D, "/dev", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    struct spindle_dirent ents[16];
    int n = spindle_fs_readdir(dev, 0, ents, 16);
    int chr = 0;
    for (int i = 0; i < n; i++)
        chr += ents[i].type == SPINDLE_DT_CHR;
    CHECK(n == 11 && chr == 5); /* . .. null zero full random urandom fd stdin stdout stderr */
    CHECK_OK(spindle_fs_close(dev));
}

static void test_proc_fd(void)
{
    char text[64];
    int f = CHECK_OK(spindle_fs_openat(D, "/tmp/named", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644));
    CHECK(spindle_fs_write(f, "abcdef", 6) == 6);
    char path[32];
    snprintf(path, sizeof path, "/proc/self/fd/%d", f);
    int64_t n = spindle_fs_readlinkat(D, path, text, sizeof text);
    CHECK(n == 10 && memcmp(text, "/tmp/named", 10) == 0);
    snprintf(path, sizeof path, "/dev/fd/%d", f);
    int again = CHECK_OK(spindle_fs_openat(D, path, SPINDLE_O_RDONLY, 0));
    CHECK(spindle_fs_read(again, text, 3) == 3 && memcmp(text, "abc", 3) == 0); /* its own position */
    struct spindle_stat st, st2;
    CHECK_OK(spindle_fs_fstatat(D, path, &st, 0));
    CHECK_OK(spindle_fs_fstatat(D, path, &st2, SPINDLE_AT_SYMLINK_NOFOLLOW));
    CHECK((st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFREG && (st2.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFLNK);
    CHECK_OK(spindle_fs_unlinkat(D, "/tmp/named", 0)); /* still reachable through the fd */
    CHECK(spindle_fs_readlinkat(D, path, text, sizeof text) > 0 && memcmp(text, "anon_inode:", 11) == 0);
    int third = CHECK_OK(spindle_fs_openat(D, path, SPINDLE_O_RDONLY | SPINDLE_O_CREAT, 0));
    CHECK(spindle_fs_read(third, text, 6) == 6);
    CHECK_OK(spindle_fs_close(third));
    CHECK_ERR(spindle_fs_unlinkat(D, path, 0), SPINDLE_EPERM);
    CHECK_ERR(spindle_fs_mkdirat(D, "/proc/self/fd/77", 0755), SPINDLE_EPERM);
    CHECK_ERR(spindle_fs_openat(D, "/proc/self/fd/7777", SPINDLE_O_RDONLY, 0), SPINDLE_ENOENT);
    CHECK_ERR(spindle_fs_openat(D, "/proc/self/fd/x", SPINDLE_O_RDONLY, 0), SPINDLE_ENOENT);

    int p[2];
    CHECK_OK(spindle_fs_pipe(p, 0));
    snprintf(path, sizeof path, "/proc/self/fd/%d", p[1]);
    n = spindle_fs_readlinkat(D, path, text, sizeof text);
    CHECK(n > 6 && memcmp(text, "pipe:[", 6) == 0);
    int w2 = CHECK_OK(spindle_fs_openat(D, path, SPINDLE_O_WRONLY, 0)); /* another write end */
    CHECK_OK(spindle_fs_close(p[1]));
    CHECK(spindle_fs_write(w2, "q", 1) == 1);
    CHECK_OK(spindle_fs_close(w2));
    CHECK(spindle_fs_read(p[0], text, 4) == 1 && spindle_fs_read(p[0], text, 4) == 0);

    int dir = CHECK_OK(spindle_fs_openat(D, "/proc/self/fd", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0));
    struct spindle_dirent ents[16];
    int count = spindle_fs_readdir(dir, 0, ents, 16);
    bool has_stdio = count >= 5 && strcmp(ents[2].name, "0") == 0 && strcmp(ents[4].name, "2") == 0;
    bool has_dir = false, has_pipe = false;
    for (int i = 0; i < count; i++) {
        has_dir |= atoi(ents[i].name) == dir && ents[i].type == SPINDLE_DT_LNK;
        has_pipe |= atoi(ents[i].name) == p[0];
    }
    CHECK(has_stdio && has_dir && has_pipe);
    CHECK(spindle_fs_readdir(dir, ents[count - 1].next_cookie, ents, 16) == 0);
    CHECK_OK(spindle_fs_close(dir));
    CHECK_OK(spindle_fs_close(p[0]));
    int out = CHECK_OK(spindle_fs_openat(D, "/dev/stdout", SPINDLE_O_WRONLY, 0));
    CHECK_ERR(spindle_fs_write(out, "x", 1), SPINDLE_EBADF); /* natively no stdio handler is set */
    CHECK_OK(spindle_fs_close(out));
    CHECK_OK(spindle_fs_close(again));
    CHECK_OK(spindle_fs_close(f));
}

/* fds 0-2: the host's until dup2 names one; duplicates of the host's; a hidden fd */
static void test_stdio_fds(void)
{
    char text[64];
    int p[2];
    CHECK_OK(spindle_fs_pipe(p, 0));
    CHECK(spindle_fs_dup2(p[1], 2) == 2);
    int64_t n = spindle_fs_readlinkat(D, "/proc/self/fd/2", text, sizeof text);
    CHECK(n > 6 && memcmp(text, "pipe:[", 6) == 0);
    CHECK(spindle_fs_write(2, "x", 1) == 1 && spindle_fs_read(p[0], text, 1) == 1 && text[0] == 'x');
    CHECK_OK(spindle_fs_close(2)); /* the host's stderr again */
    n = spindle_fs_readlinkat(D, "/proc/self/fd/2", text, sizeof text);
    CHECK(n == 13 && memcmp(text, "host:[stderr]", 13) == 0); /* natively no host describes it */
    int copy = CHECK_OK(spindle_fs_dup_stdio(1, 0));
    CHECK(copy >= SPINDLE_FS_FIRST_FD);
    struct spindle_stat st;
    CHECK_ERR(spindle_fs_fstat(copy, &st), SPINDLE_EBADF); /* no host to ask */
    CHECK_ERR(spindle_fs_dup_stdio(3, 0), SPINDLE_EBADF);
    char path[32];
    snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
    spindle_fs_set_hidden_fd(p[0]);
    CHECK_ERR(spindle_fs_readlinkat(D, path, text, sizeof text), SPINDLE_ENOENT);
    spindle_fs_set_hidden_fd(-1);
    CHECK(spindle_fs_readlinkat(D, path, text, sizeof text) > 0);
    CHECK_OK(spindle_fs_close(copy));
    CHECK_OK(spindle_fs_close(p[0]));
    CHECK_OK(spindle_fs_close(p[1]));
}

/* pipe() and a lock under allocation failure: a clean error, nothing left */
static void test_out_of_memory(void)
{
    int ok = 0, clean = 1;
    for (long budget = 0; budget < 10 && !ok; budget++) {
        int p[2];
        atomic_store(&spindle_fs_fault_countdown, budget);
        int rc = spindle_fs_pipe(p, 0);
        atomic_store(&spindle_fs_fault_countdown, -1);
        if (rc == 0) {
            ok = 1;
            spindle_fs_close(p[0]);
            spindle_fs_close(p[1]);
        } else {
            clean &= rc == -SPINDLE_ENOMEM;
        }
        int probe_fd = spindle_fs_openat(D, "/", SPINDLE_O_RDONLY, 0);
        clean &= probe_fd == SPINDLE_FS_FIRST_FD; /* no fd leaked */
        spindle_fs_close(probe_fd);
    }
    CHECK(ok && clean);
    int f = CHECK_OK(spindle_fs_openat(D, "/tmp/oom-lock", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644));
    atomic_store(&spindle_fs_fault_countdown, 0);
    CHECK_ERR(lock(f, SPINDLE_LOCK_DESCRIPTION, SPINDLE_F_WRLCK, 0, 1), SPINDLE_ENOLCK);
    atomic_store(&spindle_fs_fault_countdown, -1);
    CHECK_OK(lock(f, SPINDLE_LOCK_DESCRIPTION, SPINDLE_F_WRLCK, 0, 1));
    CHECK_OK(spindle_fs_close(f));
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    test_pipe_basics();
    test_pipe_capacity();
    test_pipe_resize();
    test_poll();
    test_record_locks();
    test_flock();
    test_devices();
    test_proc_fd();
    test_stdio_fds();
    test_out_of_memory();
    return report("ipc units");
}
