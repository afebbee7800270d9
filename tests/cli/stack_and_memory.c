// Prints the default pthread stack size and how much memory malloc got before NULL, and checks
// that out-of-memory is NULL + ENOMEM and the program goes on afterwards.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    pthread_attr_t attr;
    size_t stack = 0;
    pthread_attr_init(&attr);
    pthread_attr_getstacksize(&attr, &stack);
    printf("default thread stack: %zu\n", stack);

    void *blocks[4096];
    int n = 0;
    errno = 0;
    while (n < 4096 && (blocks[n] = malloc(1 << 20)) != NULL)
        memset(blocks[n++], 1, 1 << 20);
    printf("got %d MiB, then NULL with ENOMEM: %d\n", n, n < 4096 && errno == ENOMEM);
    for (int i = 0; i < n; i++)
        free(blocks[i]);
    void *again = malloc(1 << 20);
    printf("malloc works again after freeing: %d\n", again != NULL);
    free(again);
    return 0;
}
