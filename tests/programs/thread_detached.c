// Detached threads (by attribute and by pthread_detach) that signal completion
// through a semaphore and a condition variable, since they cannot be joined.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define BY_ATTRIBUTE 6
#define BY_DETACH 6

static sem_t finished;
static long results[BY_ATTRIBUTE];

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int done_count;
static long done_sum;

static void *square_then_post(void *arg)
{
    long n = (long)(size_t)arg;
    results[n] = n * n;
    sem_post(&finished);
    return NULL;
}

static void *detach_self_then_signal(void *arg)
{
    long n = (long)(size_t)arg;
    int rc = pthread_detach(pthread_self());
    pthread_mutex_lock(&done_lock);
    done_sum += rc == 0 ? n + 100 : -1000;
    done_count++;
    pthread_cond_signal(&done_cond);
    pthread_mutex_unlock(&done_lock);
    return NULL;
}

int main(void)
{
    if (sem_init(&finished, 0, 0) != 0) {
        printf("sem_init failed\n");
        return 1;
    }
    // Nothing posted yet: trywait must refuse rather than block.
    int try_rc = sem_trywait(&finished);
    printf("sem_trywait on empty: %s\n", try_rc == -1 && errno == EAGAIN ? "EAGAIN" : "unexpected");

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int state = -1;
    pthread_attr_getdetachstate(&attr, &state);
    printf("attr detach state is detached: %d\n", state == PTHREAD_CREATE_DETACHED);
    for (long i = 0; i < BY_ATTRIBUTE; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, square_then_post, (void *)(size_t)i) != 0) {
            printf("pthread_create failed\n");
            return 1;
        }
    }
    pthread_attr_destroy(&attr);
    for (int i = 0; i < BY_ATTRIBUTE; i++)
        sem_wait(&finished);
    long sum = 0;
    for (int i = 0; i < BY_ATTRIBUTE; i++)
        sum += results[i];
    printf("detached by attribute: sum of squares = %ld\n", sum);

    for (long i = 0; i < BY_DETACH; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, detach_self_then_signal, (void *)(size_t)i) != 0) {
            printf("pthread_create failed\n");
            return 1;
        }
    }
    pthread_mutex_lock(&done_lock);
    while (done_count < BY_DETACH)
        pthread_cond_wait(&done_cond, &done_lock);
    long detach_sum = done_sum;
    pthread_mutex_unlock(&done_lock);
    printf("detached by pthread_detach: count = %d sum = %ld\n", BY_DETACH, detach_sum);
    sem_destroy(&finished);
    int ok = sum == 55 && detach_sum == BY_DETACH * 100 + 15;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
