// pthread_cond_timedwait: with nobody signalling it returns ETIMEDOUT no
// earlier than the deadline; when another thread signals in time it returns 0.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;

static struct timespec deadline_after_ms(long ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += (ms % 1000) * 1000000L;
    ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    return ts;
}

static int reached(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static void *signal_soon(void *arg)
{
    (void)arg;
    struct timespec pause = {0, 10 * 1000000L};
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&lock);
    ready = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    // No signaller: must time out, and not before the deadline.
    struct timespec deadline = deadline_after_ms(50);
    pthread_mutex_lock(&lock);
    int rc = 0;
    while (!ready && rc == 0)
        rc = pthread_cond_timedwait(&cond, &lock, &deadline);
    pthread_mutex_unlock(&lock);
    int timed_out = rc == ETIMEDOUT;
    int waited_long_enough = reached(&deadline);
    printf("no signal: result is ETIMEDOUT: %d, deadline reached: %d\n", timed_out, waited_long_enough);

    // A deadline in the past times out at once.
    struct timespec past = deadline_after_ms(0);
    past.tv_sec -= 1;
    pthread_mutex_lock(&lock);
    int past_rc = pthread_cond_timedwait(&cond, &lock, &past);
    pthread_mutex_unlock(&lock);
    printf("past deadline: result is ETIMEDOUT: %d\n", past_rc == ETIMEDOUT);

    // A signal 10 ms in arrives well before a 10 s deadline.
    pthread_t t;
    deadline = deadline_after_ms(10000);
    pthread_create(&t, NULL, signal_soon, NULL);
    pthread_mutex_lock(&lock);
    rc = 0;
    while (!ready && rc == 0)
        rc = pthread_cond_timedwait(&cond, &lock, &deadline);
    int woke_with_flag = ready;
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    printf("signalled: result 0: %d, flag seen: %d, deadline reached: %d\n", rc == 0, woke_with_flag,
           reached(&deadline));

    int ok = timed_out && waited_long_enough && past_rc == ETIMEDOUT && rc == 0 && woke_with_flag;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
