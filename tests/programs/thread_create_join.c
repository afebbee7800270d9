// pthread_create/pthread_join passing arguments in and results out, and
// pthread_self/pthread_equal agreeing with the handle pthread_create returned.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8

struct job {
    int index;
    pthread_t self_seen_by_thread;
    long sum;
};

static void *sum_range(void *arg)
{
    struct job *job = arg;
    job->self_seen_by_thread = pthread_self();
    long sum = 0;
    for (int i = 0; i <= (job->index + 1) * 1000; i++)
        sum += i;
    job->sum = sum;
    // The return value travels back through pthread_join.
    return (void *)(intptr_t)(job->index * 10);
}

int main(void)
{
    pthread_t threads[THREADS];
    struct job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i].index = i;
        jobs[i].sum = -1;
        int rc = pthread_create(&threads[i], NULL, sum_range, &jobs[i]);
        if (rc != 0) {
            printf("pthread_create %d failed: %d\n", i, rc);
            return 1;
        }
    }
    int failures = 0;
    for (int i = 0; i < THREADS; i++) {
        void *ret = NULL;
        int rc = pthread_join(threads[i], &ret);
        long expected = (long)((i + 1) * 1000) * ((i + 1) * 1000 + 1) / 2;
        int self_matches = pthread_equal(threads[i], jobs[i].self_seen_by_thread) != 0;
        int differs_from_main = pthread_equal(pthread_self(), jobs[i].self_seen_by_thread) == 0;
        printf("thread %d: join=%d ret=%d sum=%ld expected=%ld self_matches=%d differs_from_main=%d\n", i, rc,
               (int)(intptr_t)ret, jobs[i].sum, expected, self_matches, differs_from_main);
        if (rc != 0 || (intptr_t)ret != i * 10 || jobs[i].sum != expected || !self_matches ||
            !differs_from_main)
            failures++;
    }
    printf("main self equals itself: %d\n", pthread_equal(pthread_self(), pthread_self()) != 0);
    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
