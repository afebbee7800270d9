// A trap (__builtin_trap) in a second thread while main waits on it ends the
// whole program with a non-zero code and a message naming the trap.
#include <pthread.h>
#include <stdio.h>

static void *crash(void *arg)
{
    (void)arg;
    printf("worker: about to trap\n");
    // A trap skips stdio's exit-time flush, so flush by hand.
    fflush(stdout);
    __builtin_trap();
}

int main(void)
{
    printf("main: waiting for worker\n");
    fflush(stdout);
    pthread_t t;
    pthread_create(&t, NULL, crash, NULL);
    pthread_join(t, NULL);
    printf("main: unreachable, the trap ends the program\n");
    return 0;
}
