// Many threads increment one counter under a pthread mutex; any lost update
// shows up as a total below THREADS * INCREMENTS.
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define INCREMENTS 100000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static long per_thread[THREADS];

static void *increment_many(void *arg)
{
    int index = (int)(size_t)arg;
    for (int i = 0; i < INCREMENTS; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        per_thread[index]++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, increment_many, (void *)(size_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    long per_thread_total = 0;
    for (int i = 0; i < THREADS; i++)
        per_thread_total += per_thread[i];
    printf("counter = %ld (expected %ld)\n", counter, (long)THREADS * INCREMENTS);
    printf("per-thread counts add up: %d\n", per_thread_total == counter);
    int ok = counter == (long)THREADS * INCREMENTS && per_thread_total == counter;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
