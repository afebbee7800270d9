/* fcntl record locks compared with Linux. Classic locks (F_SETLK) belong to
 * the process: two fds and two threads of one program never conflict, and
 * closing any fd of the file drops them. OFD locks (F_OFD_SETLK) belong to
 * the open file description: two opens conflict, even in one thread. Ranges
 * split and merge; F_SETLKW waits for the holder. */
#define _GNU_SOURCE /* F_OFD_* */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PATH "/tmp/spindle-posix-lock-fcntl.tmp"

static int set(int fd, int cmd, short type, off_t start, off_t len)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
    return fcntl(fd, cmd, &l) == 0 ? 0 : errno;
}

static const char *result(int err)
{
    return err == 0                         ? "ok"
           : err == EAGAIN || err == EACCES ? "busy"
           : err == EBADF                   ? "EBADF"
           : err == EINVAL                  ? "EINVAL"
                                            : strerror(err);
}

/* what F_OFD_GETLK on fd reports for a write lock over [start, start+len) */
static void show(const char *what, int fd, off_t start, off_t len)
{
    struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
    if (fcntl(fd, F_OFD_GETLK, &l) != 0) {
        printf("%s: F_OFD_GETLK failed: %s\n", what, strerror(errno));
        return;
    }
    if (l.l_type == F_UNLCK)
        printf("%s: free\n", what);
    else
        printf("%s: %s lock at %lld len %lld, holder %s\n", what, l.l_type == F_WRLCK ? "write" : "read",
               (long long)l.l_start, (long long)l.l_len,
               l.l_pid == -1 ? "an OFD lock (-1)"
               : l.l_pid > 0 ? "the process"
                             : "?");
}

static int shared_fd;
static void *lock_from_thread(void *arg)
{
    (void)arg;
    printf("other thread, classic write lock on the same bytes: %s\n",
           result(set(shared_fd, F_SETLK, F_WRLCK, 0, 100)));
    return NULL;
}

static atomic_int released; /* set by the holder just before it lets go */
static int waiter_fd;
static void *wait_for_lock(void *arg)
{
    (void)arg;
    int err = set(waiter_fd, F_OFD_SETLKW, F_WRLCK, 0, 10);
    printf("F_OFD_SETLKW returned %s after the holder let go: %s\n", result(err), released ? "yes" : "no");
    set(waiter_fd, F_OFD_SETLK, F_UNLCK, 0, 10);
    return NULL;
}

int main(void)
{
    int a = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
    int b = open(PATH, O_RDWR);
    int ro = open(PATH, O_RDONLY);
    write(a, "0123456789", 10);

    printf("-- classic locks: one owner, the process\n");
    printf("a: write lock 0..99: %s\n", result(set(a, F_SETLK, F_WRLCK, 0, 100)));
    printf("b: write lock 50..59: %s\n", result(set(b, F_SETLK, F_WRLCK, 50, 10)));
    shared_fd = b;
    pthread_t t;
    pthread_create(&t, NULL, lock_from_thread, NULL);
    pthread_join(t, NULL);
    struct flock q = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    fcntl(b, F_GETLK, &q);
    printf("F_GETLK from the process: %s\n", q.l_type == F_UNLCK ? "free" : "locked");
    show("an OFD of b over 0..9 sees", b, 0, 10);
    printf("b: OFD write lock 20..29: %s\n", result(set(b, F_OFD_SETLK, F_WRLCK, 20, 10)));
    close(ro); /* closing any fd of the file drops the process's classic locks */
    show("after closing another fd", b, 0, 10);
    printf("b: OFD write lock 20..29 now: %s\n", result(set(b, F_OFD_SETLK, F_WRLCK, 20, 10)));
    set(b, F_OFD_SETLK, F_UNLCK, 0, 0);

    printf("-- OFD locks: one owner per open\n");
    printf("a: write lock 0..99: %s\n", result(set(a, F_OFD_SETLK, F_WRLCK, 0, 100)));
    printf("b: write lock 5: %s\n", result(set(b, F_OFD_SETLK, F_WRLCK, 5, 1)));
    printf("b: read lock 99: %s\n", result(set(b, F_OFD_SETLK, F_RDLCK, 99, 1)));
    printf("a: unlock 40..59 (splits the range): %s\n", result(set(a, F_OFD_SETLK, F_UNLCK, 40, 20)));
    printf("b: write lock 45..49: %s\n", result(set(b, F_OFD_SETLK, F_WRLCK, 45, 5)));
    show("b looks at 30..44", b, 30, 15);
    show("b looks at 60..69", b, 60, 10);
    printf("a: downgrade 60..99 to read: %s\n", result(set(a, F_OFD_SETLK, F_RDLCK, 60, 40)));
    printf("b: read lock 70: %s, write lock 70: %s\n", result(set(b, F_OFD_SETLK, F_RDLCK, 70, 1)),
           result(set(b, F_OFD_SETLK, F_WRLCK, 70, 1)));
    set(a, F_OFD_SETLK, F_UNLCK, 0, 0);
    set(b, F_OFD_SETLK, F_UNLCK, 0, 0);
    set(a, F_OFD_SETLK, F_RDLCK, 200, 10);
    set(a, F_OFD_SETLK, F_RDLCK, 210, 10);
    show("touching read locks 200..209 + 210..219 merge", b, 200, 100);
    set(a, F_OFD_SETLK, F_WRLCK, 300, 0);
    show("a lock to the end of the file", b, 1000000, 1);
    struct flock end = {.l_type = F_WRLCK, .l_whence = SEEK_END, .l_start = -5, .l_len = 2};
    int err = fcntl(b, F_OFD_SETLK, &end) == 0 ? 0 : errno;
    printf("b: SEEK_END-5 len 2 (bytes 5..6): %s\n", result(err));
    show("a looks at 0..9", a, 0, 10);
    set(b, F_OFD_SETLK, F_UNLCK, 0, 0);
    end.l_whence = SEEK_SET;
    end.l_start = 8;
    end.l_len = -3; /* bytes 5..7 */
    fcntl(b, F_OFD_SETLK, &end);
    show("a negative length covers the bytes before the start", a, 7, 1);
    set(a, F_OFD_SETLK, F_UNLCK, 0, 0);
    set(b, F_OFD_SETLK, F_UNLCK, 0, 0);

    printf("-- errors\n");
    int rd = open(PATH, O_RDONLY);
    printf("write lock on a read-only fd: %s\n", result(set(rd, F_OFD_SETLK, F_WRLCK, 0, 1)));
    printf("bad type: %s\n", result(set(a, F_OFD_SETLK, 7, 0, 1)));
    printf("range before 0: %s\n", result(set(a, F_OFD_SETLK, F_RDLCK, -1, 1)));
    struct flock bad_pid = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_len = 1, .l_pid = 5};
    printf("OFD with l_pid set: %s\n", result(fcntl(a, F_OFD_SETLK, &bad_pid) == 0 ? 0 : errno));
    printf("closed fd: %s\n", result(set(rd + 100, F_SETLK, F_RDLCK, 0, 1)));
    close(rd);

    printf("-- F_OFD_SETLKW waits\n");
    set(a, F_OFD_SETLK, F_WRLCK, 0, 10);
    waiter_fd = b;
    pthread_create(&t, NULL, wait_for_lock, NULL);
    struct timespec pause = {0, 30 * 1000000};
    nanosleep(&pause, NULL);
    released = 1;
    set(a, F_OFD_SETLK, F_UNLCK, 0, 10);
    pthread_join(t, NULL);

    close(a);
    close(b);
    unlink(PATH);
    return 0;
}
