// Timed waits on locks held by another thread give up with ETIMEDOUT after
// their deadline: pthread_mutex_timedlock, pthread_rwlock_timedwrlock,
// pthread_rwlock_timedrdlock and sem_timedwait; and succeed when free.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static sem_t empty_semaphore;

static struct timespec deadline_after_ms(long ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += ms * 1000000L;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    return ts;
}

static int deadline_passed(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static const char *name(int e) { return e == 0 ? "0" : e == ETIMEDOUT ? "ETIMEDOUT" : "other"; }

// Runs in a second thread while main holds the locks.
static void *try_timed(void *arg)
{
    int *failures = arg;
    struct timespec d = deadline_after_ms(30);
    int rc = pthread_mutex_timedlock(&mutex, &d);
    int late = deadline_passed(&d);
    printf("mutex_timedlock on held mutex: %s, after deadline: %d\n", name(rc), late);
    *failures += rc != ETIMEDOUT || !late;

    d = deadline_after_ms(30);
    rc = pthread_rwlock_timedwrlock(&rwlock, &d);
    late = deadline_passed(&d);
    printf("rwlock_timedwrlock on read-held lock: %s, after deadline: %d\n", name(rc), late);
    *failures += rc != ETIMEDOUT || !late;

    d = deadline_after_ms(30);
    int sem_rc = sem_timedwait(&empty_semaphore, &d);
    int sem_errno = errno;
    late = deadline_passed(&d);
    printf("sem_timedwait on empty semaphore: returns %d, errno %s, after deadline: %d\n", sem_rc,
           name(sem_errno), late);
    *failures += sem_rc != -1 || sem_errno != ETIMEDOUT || !late;
    return NULL;
}

static void *try_timed_read_against_writer(void *arg)
{
    int *failures = arg;
    struct timespec d = deadline_after_ms(30);
    int rc = pthread_rwlock_timedrdlock(&rwlock, &d);
    int late = deadline_passed(&d);
    printf("rwlock_timedrdlock on write-held lock: %s, after deadline: %d\n", name(rc), late);
    *failures += rc != ETIMEDOUT || !late;
    return NULL;
}

int main(void)
{
    int failures = 0;
    sem_init(&empty_semaphore, 0, 0);
    pthread_t t;

    pthread_mutex_lock(&mutex);
    pthread_rwlock_rdlock(&rwlock);
    pthread_create(&t, NULL, try_timed, &failures);
    pthread_join(t, NULL);
    pthread_rwlock_unlock(&rwlock);
    pthread_mutex_unlock(&mutex);

    pthread_rwlock_wrlock(&rwlock);
    pthread_create(&t, NULL, try_timed_read_against_writer, &failures);
    pthread_join(t, NULL);
    pthread_rwlock_unlock(&rwlock);

    // Free locks are taken at once, well before a 10 s deadline.
    struct timespec d = deadline_after_ms(10000);
    int m = pthread_mutex_timedlock(&mutex, &d);
    if (m == 0)
        pthread_mutex_unlock(&mutex);
    int w = pthread_rwlock_timedwrlock(&rwlock, &d);
    if (w == 0)
        pthread_rwlock_unlock(&rwlock);
    sem_post(&empty_semaphore);
    int s = sem_timedwait(&empty_semaphore, &d);
    printf("free locks: mutex %s, rwlock %s, semaphore %d, before deadline: %d\n", name(m), name(w), s,
           !deadline_passed(&d));
    failures += m != 0 || w != 0 || s != 0;
    sem_destroy(&empty_semaphore);
    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
