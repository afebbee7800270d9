/* --fs=js: pthreads do file I/O (proxied to the host's main thread) while the C main is
 * blocked in every kind of libc wait: pthread_join, a mutex held by the I/O thread, a
 * condition variable, a semaphore, a barrier and a sleep. With more threads than the host's
 * pre-started workers, so new workers are started while main is blocked. Each step prints a
 * deterministic line; natively the same program gives the same output. */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <time.h>

#include "../fs/conformance/conformance.h"

#define THREADS 12
#define LINES 300

/* Writes LINES lines to its own file with stdio, reads them back, unlinks it. */
static long file_round_trip(int id)
{
    char name[32], buf[64];
    snprintf(name, sizeof name, "io-%d.txt", id);
    FILE *f = fopen(name, "w");
    if (!f)
        return -1;
    for (int i = 0; i < LINES; i++)
        fprintf(f, "thread %d line %d\n", id, i);
    fclose(f);
    f = fopen(name, "r");
    long ok = 0;
    for (int i = 0; fgets(buf, sizeof buf, f); i++) {
        char want[64];
        snprintf(want, sizeof want, "thread %d line %d\n", id, i);
        ok += strcmp(buf, want) == 0;
    }
    fclose(f);
    unlink(name);
    return ok;
}

static void *join_worker(void *arg) { return (void *)(intptr_t)file_round_trip((int)(intptr_t)arg); }

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;
static sem_t sem;
static pthread_barrier_t barrier;
static long mutex_result, cond_result, sem_result, barrier_result, sleep_result;
static pthread_mutex_t started_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t started_cond = PTHREAD_COND_INITIALIZER;
static int started;

static void *mutex_worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    pthread_mutex_lock(&started_lock);
    started = 1;
    pthread_cond_signal(&started_cond);
    pthread_mutex_unlock(&started_lock);
    mutex_result = file_round_trip(100); /* main waits for `lock` meanwhile */
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *cond_worker(void *arg)
{
    (void)arg;
    cond_result = file_round_trip(101);
    pthread_mutex_lock(&lock);
    ready = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *sem_worker(void *arg)
{
    (void)arg;
    sem_result = file_round_trip(102);
    sem_post(&sem);
    return NULL;
}

static void *barrier_worker(void *arg)
{
    (void)arg;
    barrier_result = file_round_trip(103);
    pthread_barrier_wait(&barrier);
    return NULL;
}

static void *sleep_worker(void *arg)
{
    (void)arg;
    sleep_result = file_round_trip(104);
    return NULL;
}

int main(void)
{
    enter_scratch_dir();
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, join_worker, (void *)(intptr_t)i);
    int all = 1;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        all &= (intptr_t)r == LINES;
    }
    printf("join: %d threads read back all lines: %d\n", THREADS, all);

    pthread_t w;
    pthread_create(&w, NULL, mutex_worker, NULL);
    pthread_mutex_lock(&started_lock);
    while (!started)
        pthread_cond_wait(&started_cond, &started_lock);
    pthread_mutex_unlock(&started_lock);
    pthread_mutex_lock(&lock); /* held by the worker during its I/O */
    pthread_mutex_unlock(&lock);
    pthread_join(w, NULL);
    printf("mutex: lines %ld\n", mutex_result);

    pthread_create(&w, NULL, cond_worker, NULL);
    pthread_mutex_lock(&lock);
    while (!ready)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    pthread_join(w, NULL);
    printf("condvar: lines %ld\n", cond_result);

    sem_init(&sem, 0, 0);
    pthread_create(&w, NULL, sem_worker, NULL);
    sem_wait(&sem);
    pthread_join(w, NULL);
    printf("semaphore: lines %ld\n", sem_result);

    pthread_barrier_init(&barrier, NULL, 2);
    pthread_create(&w, NULL, barrier_worker, NULL);
    pthread_barrier_wait(&barrier);
    pthread_join(w, NULL);
    printf("barrier: lines %ld\n", barrier_result);

    pthread_create(&w, NULL, sleep_worker, NULL);
    while (__atomic_load_n(&sleep_result, __ATOMIC_ACQUIRE) == 0) {
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    pthread_join(w, NULL);
    printf("sleep: lines %ld\n", sleep_result);
    show_listing("scratch left empty", ".");
    return 0;
}
