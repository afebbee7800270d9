// Spins forever on the main thread and on N more threads (default 2), so that only a signal
// ends the run. Says "spinning" once every thread runs.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int running;

static void *spin(void *arg)
{
    (void)arg;
    atomic_fetch_add(&running, 1);
    for (volatile unsigned long x = 0;; x++) {
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    for (int i = 0; i < threads; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, spin, NULL) != 0)
            return 1;
    }
    while (atomic_load(&running) < threads) {
    }
    printf("spinning\n");
    fflush(stdout);
    for (volatile unsigned long x = 0;; x++) {
    }
}
