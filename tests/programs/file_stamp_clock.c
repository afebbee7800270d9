/* What a write's timestamp may be: coarse (Linux stamps with its tick clock, Spindle with a
 * clock reading up to about a millisecond old), but never ahead of clock_gettime(CLOCK_REALTIME)
 * read after the write, never long behind it, and never going back for one file, also when two
 * threads take turns writing it. Prints only what the checks found. In Spindle's own FS (its
 * mounts take their host's stamps; --fs=js stamps on the host thread). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WRITES 2000
#define TURNS 2000
#define STALE_LIMIT_NS 50000000LL /* Linux's tick is 1-10 ms; Spindle's reading ~1 ms */

static long long ns_of(struct timespec t) { return (long long)t.tv_sec * 1000000000 + t.tv_nsec; }

static long long realtime_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return ns_of(now);
}

/* Stamp checks of one write: counts stamps ahead of the clock, long stale, or gone back. */
struct stamp_faults {
    int ahead, stale, back;
    long long last_mtime, last_ctime;
};

static void write_and_check(int fd, struct stamp_faults *f)
{
    long long before = realtime_ns();
    if (pwrite(fd, "x", 1, 0) != 1)
        f->ahead = -1000000; /* shows as a failure below */
    struct stat st;
    fstat(fd, &st);
    long long after = realtime_ns(), mtime = ns_of(st.st_mtim), ctime = ns_of(st.st_ctim);
    f->ahead += mtime > after || ctime > after;
    f->stale += mtime < before - STALE_LIMIT_NS;
    f->back += mtime < f->last_mtime || ctime < f->last_ctime;
    f->last_mtime = mtime;
    f->last_ctime = ctime;
}

static void show_faults(const char *label, const struct stamp_faults *f)
{
    printf("%s: ahead of the clock %d, long stale %d, gone back %d\n", label, f->ahead, f->stale, f->back);
}

/* Two threads take strict turns (a mutex and a condition) writing one file; each checks the
 * stamps it sees. Each thread has a stamp clock of its own in Spindle (a worker's reading), so
 * this is where one thread's older reading could stamp a time behind the other's. */
static pthread_mutex_t turn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static int turn;
static struct stamp_faults shared;
static int shared_fd;

static void *take_turns(void *arg)
{
    int me = (int)(intptr_t)arg;
    pthread_mutex_lock(&turn_lock);
    for (int i = 0; i < TURNS; i++) {
        while (turn != me)
            pthread_cond_wait(&turn_changed, &turn_lock);
        write_and_check(shared_fd, &shared);
        turn = 1 - me;
        pthread_cond_signal(&turn_changed);
    }
    pthread_mutex_unlock(&turn_lock);
    return NULL;
}

int main(void)
{
    char one[] = "/tmp/stamp-one-XXXXXX", two[] = "/tmp/stamp-two-XXXXXX";
    int fd = mkstemp(one);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    struct stamp_faults alone = {0};
    for (int i = 0; i < WRITES; i++)
        write_and_check(fd, &alone);
    close(fd);
    show_faults("one thread", &alone);

    shared_fd = mkstemp(two);
    if (shared_fd < 0) {
        perror("mkstemp");
        return 1;
    }
    pthread_t threads[2];
    for (int t = 0; t < 2; t++)
        pthread_create(&threads[t], NULL, take_turns, (void *)(intptr_t)t);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    close(shared_fd);
    show_faults("two threads taking turns", &shared);
    unlink(one);
    unlink(two);
    return 0;
}
