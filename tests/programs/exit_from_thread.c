// exit(7) from a second thread while main is blocked in pthread_join on it:
// the whole program ends with code 7 and stdio buffered earlier is flushed.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *leave_program(void *arg)
{
    (void)arg;
    printf("worker: calling exit(7)\n");
    exit(7);
}

int main(void)
{
    // Not flushed on purpose: exit() in the other thread must flush it.
    printf("main: waiting for worker\n");
    pthread_t t;
    pthread_create(&t, NULL, leave_program, NULL);
    pthread_join(t, NULL);
    printf("main: unreachable, worker exited the program\n");
    return 1;
}
