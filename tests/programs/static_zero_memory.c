// Zeroed and initialized statics, in main and in a thread: spindle cc drops the start
// function's zeroing of .bss (cli/build/bss-fill.js), since a new memory is all zeros already.
// A large array, a small one beside initialized data, and a thread that reads what main wrote.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char big[48 << 20];
static int small[1000];
static int initialized[4] = {11, 22, 33, 44};
static const char text[] = "data segment intact";

static long nonzero(const char *p, size_t n)
{
    long count = 0;
    for (size_t i = 0; i < n; i += 4093)
        count += p[i] != 0;
    return count + (p[n - 1] != 0);
}

static void *reader(void *arg)
{
    (void)arg;
    printf("thread: big[12345]=%d small[999]=%d initialized[3]=%d\n", big[12345], small[999], initialized[3]);
    return NULL;
}

int main(void)
{
    printf("nonzero bytes sampled in big: %ld\n", nonzero(big, sizeof big));
    long small_nonzero = 0;
    for (int i = 0; i < 1000; i++)
        small_nonzero += small[i] != 0;
    printf("nonzero ints in small: %ld\n", small_nonzero);
    printf("initialized: %d %d %d %d, text: %s\n", initialized[0], initialized[1], initialized[2],
           initialized[3], text);
    big[12345] = 7;
    small[999] = 9;
    initialized[3] = 55;
    pthread_t t;
    if (pthread_create(&t, NULL, reader, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    memset(big, 1, sizeof big);
    printf("after memset: %ld sampled nonzero\n", nonzero(big, sizeof big));
    return 0;
}
