// exit(9) from a second thread while main is busy computing rather than
// waiting: the host has to stop a running thread, not only a blocked one.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int main_is_spinning;

static void *leave_program(void *arg)
{
    (void)arg;
    while (!atomic_load(&main_is_spinning)) {
    }
    printf("worker: main is busy, calling exit(9)\n");
    exit(9);
}

int main(void)
{
    printf("main: starting worker\n");
    pthread_t t;
    pthread_create(&t, NULL, leave_program, NULL);
    atomic_store(&main_is_spinning, 1);
    // Spin forever on an atomic (a side effect, so the loop is well defined).
    atomic_uint spins = 0;
    for (;;)
        atomic_fetch_add_explicit(&spins, 1, memory_order_relaxed);
}
