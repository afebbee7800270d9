// Starts threads that wait until pthread_create fails, twice, then lets them end and starts one
// more: prints how many ran at once, the error, and whether a thread can start again.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MOST 4096
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int released;
static pthread_t threads[MOST];

static void *wait_for_release(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!released)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    int n = 0, err = 0;
    while (n < MOST && (err = pthread_create(&threads[n], NULL, wait_for_release, NULL)) == 0)
        n++;
    int again = pthread_create(&threads[n], NULL, wait_for_release, NULL);
    printf("ran %d at once, then %s, again %s\n", n, err == EAGAIN ? "EAGAIN" : strerror(err),
           again == EAGAIN ? "EAGAIN" : strerror(again));
    fflush(stdout);
    pthread_mutex_lock(&lock);
    released = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    pthread_t one;
    int after = pthread_create(&one, NULL, wait_for_release, NULL);
    if (after == 0)
        pthread_join(one, NULL);
    printf("after they ended: %s\n", after == 0 ? "started" : strerror(after));
    return 0;
}
