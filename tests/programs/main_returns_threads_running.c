// main returning ends the program with its code even while other threads are
// still running (busy or blocked); their later output never appears.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int started;
// Never cleared: the loops below only end with the program.
static atomic_int keep_running = 1;
static pthread_mutex_t never_unlocked = PTHREAD_MUTEX_INITIALIZER;

static void *spin_forever(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    while (atomic_load_explicit(&keep_running, memory_order_relaxed)) {
    }
    return NULL;
}

static void *sleep_forever(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    while (atomic_load(&keep_running))
        usleep(1000);
    return NULL;
}

static void *block_forever(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    pthread_mutex_lock(&never_unlocked);
    printf("unreachable: the lock is held by main until the program ends\n");
    return NULL;
}

int main(void)
{
    pthread_mutex_lock(&never_unlocked);
    void *(*bodies[])(void *) = {spin_forever, sleep_forever, block_forever};
    for (int i = 0; i < 3; i++) {
        pthread_t t;
        pthread_create(&t, NULL, bodies[i], NULL);
        pthread_detach(t);
    }
    while (atomic_load(&started) < 3)
        usleep(1000);
    printf("main: 3 threads running, returning 5\n");
    return 5;
}
