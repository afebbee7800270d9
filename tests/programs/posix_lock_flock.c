/* flock and lockf compared with Linux. flock locks belong to the open file
 * description: two opens of one file conflict even in one thread, and the
 * lock goes when the description is closed. flock
 * and fcntl locks do not see each other. lockf is a classic record lock. */
#define _GNU_SOURCE /* F_OFD_*, lockf's F_LOCK */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define PATH "/tmp/spindle-posix-lock-flock.tmp"

static const char *result(int rc)
{
    return rc == 0                ? "ok"
           : errno == EWOULDBLOCK ? "EWOULDBLOCK"
           : errno == EACCES      ? "EACCES"
           : errno == EAGAIN      ? "EAGAIN"
           : errno == EINVAL      ? "EINVAL"
           : errno == EBADF       ? "EBADF"
                                  : strerror(errno);
}

static int waiter_fd;
static atomic_int released; /* set by the holder just before it lets go */
static void *wait_for_flock(void *arg)
{
    (void)arg;
    int rc = flock(waiter_fd, LOCK_EX);
    printf("blocking LOCK_EX got the lock after the holder let go: %s %s\n", result(rc),
           released ? "yes" : "no");
    flock(waiter_fd, LOCK_UN);
    return NULL;
}

int main(void)
{
    int a = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
    int b = open(PATH, O_RDWR);
    printf("a LOCK_EX: %s\n", result(flock(a, LOCK_EX | LOCK_NB)));
    printf("b LOCK_EX|LOCK_NB (same thread, other open): %s\n", result(flock(b, LOCK_EX | LOCK_NB)));
    printf("b LOCK_SH|LOCK_NB: %s\n", result(flock(b, LOCK_SH | LOCK_NB)));
    printf("a LOCK_EX again (its own lock): %s\n", result(flock(a, LOCK_EX | LOCK_NB)));
    close(a);
    printf("after closing a, b: %s\n", result(flock(b, LOCK_EX | LOCK_NB)));
    printf("b downgrades to LOCK_SH: %s\n", result(flock(b, LOCK_SH | LOCK_NB)));
    a = open(PATH, O_RDONLY);
    printf("a (read-only) LOCK_SH beside it: %s\n", result(flock(a, LOCK_SH | LOCK_NB)));
    printf("a LOCK_EX: %s\n", result(flock(a, LOCK_EX | LOCK_NB)));
    struct flock ofd = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_len = 0};
    printf("an OFD read lock beside flock: %s\n", result(fcntl(a, F_OFD_SETLK, &ofd)));
    printf("bad operation: %s\n", result(flock(a, LOCK_SH | LOCK_EX)));
    printf("closed fd: %s\n", result(flock(a + 50, LOCK_SH)));
    flock(a, LOCK_UN);
    flock(b, LOCK_UN);
    ofd.l_type = F_UNLCK;
    fcntl(a, F_OFD_SETLK, &ofd);

    flock(b, LOCK_EX);
    waiter_fd = a;
    pthread_t t;
    pthread_create(&t, NULL, wait_for_flock, NULL);
    struct timespec pause = {0, 30 * 1000000};
    nanosleep(&pause, NULL);
    released = 1;
    flock(b, LOCK_UN);
    pthread_join(t, NULL);
    close(a);

    printf("-- lockf\n");
    write(b, "0123456789", 10);
    lseek(b, 2, SEEK_SET);
    printf("F_TLOCK 2..5: %s\n", result(lockf(b, F_TLOCK, 4)));
    printf("F_TEST from the same process: %s\n", result(lockf(b, F_TEST, 4)));
    a = open(PATH, O_RDWR);
    struct flock probe = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    fcntl(a, F_OFD_GETLK, &probe);
    printf("an OFD probe sees: %s at %lld len %lld\n", probe.l_type == F_WRLCK ? "write lock" : "?",
           (long long)probe.l_start, (long long)probe.l_len);
    struct flock w = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 5, .l_len = 1};
    printf("OFD write lock on byte 5: %s\n", result(fcntl(a, F_OFD_SETLK, &w)));
    lseek(b, 5, SEEK_SET);
    printf("F_ULOCK from 5 on: %s\n", result(lockf(b, F_ULOCK, 0)));
    printf("OFD write lock on byte 5 now: %s\n", result(fcntl(a, F_OFD_SETLK, &w)));
    printf("lockf bad command: %s\n", result(lockf(b, 99, 0)));
    close(a);
    close(b);
    unlink(PATH);
    return 0;
}
