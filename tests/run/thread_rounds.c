// Rounds of two threads created and joined, as a program with a parallel loop makes them: each
// round's threads should find the workers the last round's left, not boot new ones.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *work(void *arg)
{
    volatile long sum = 0;
    for (long i = 0; i < 1000; i++)
        sum += i;
    return arg;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    for (int r = 0; r < rounds; r++) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, work, NULL) != 0)
                return 1;
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
    }
    printf("rounds %d\n", rounds);
    return 0;
}
