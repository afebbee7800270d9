// Recursion that stays inside its stack must run to the end under the stack check: about
// 160 KiB of a pthread's 256 KiB, and 800 KiB of main's 1 MiB.
#include <pthread.h>
#include <stdio.h>

static int recurse(int depth)
{
    volatile unsigned char frame[1024];
    for (int i = 0; i < 1024; i += 16)
        frame[i] = (unsigned char)depth;
    return depth == 0 ? 0 : recurse(depth - 1) + (frame[0] == (unsigned char)depth);
}

static void *body(void *arg) { return (void *)(long)recurse((int)(long)arg); }

int main(void)
{
    pthread_t t;
    void *in_thread;
    if (pthread_create(&t, NULL, body, (void *)150L) || pthread_join(t, &in_thread))
        return 2;
    printf("thread: %ld levels\n", (long)in_thread);
    printf("main: %d levels\n", recurse(750));
    return 0;
}
