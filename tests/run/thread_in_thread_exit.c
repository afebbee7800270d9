/* A thread started by a thread ends the program with exit(5) while main waits in
 * pthread_join: with the C main on Node's main thread, the first thread's worker starts the
 * second one's, and that worker ends the process (tests/main-thread.test.js). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *grandchild(void *arg)
{
    (void)arg;
    printf("grandchild: calling exit(5)\n");
    fflush(stdout);
    exit(5);
}

static void *child(void *arg)
{
    pthread_t t;
    (void)arg;
    if (pthread_create(&t, NULL, grandchild, NULL))
        return NULL;
    pthread_join(t, NULL);
    return NULL;
}

int main(void)
{
    pthread_t t;
    /* before the thread starts: with its workers ready (the thread hint) the grandchild can
     * print within a millisecond of pthread_create */
    printf("main: waiting\n");
    fflush(stdout);
    if (pthread_create(&t, NULL, child, NULL))
        return 1;
    pthread_join(t, NULL);
    printf("main: not reached\n");
    return 0;
}
