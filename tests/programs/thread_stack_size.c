// A thread created with a large pthread_attr stack size can use that much
// stack. The default wasm thread stack is small (64 KiB) and has no guard
// page, so ignoring the attribute would corrupt memory instead of failing.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define STACK_SIZE (2u * 1024 * 1024)
#define BUFFER_SIZE (512u * 1024)

static void *use_big_stack(void *arg)
{
    (void)arg;
    volatile unsigned char buffer[BUFFER_SIZE];
    for (unsigned i = 0; i < BUFFER_SIZE; i++)
        buffer[i] = (unsigned char)(i * 7u + 3u);
    unsigned long sum = 0;
    for (unsigned i = 0; i < BUFFER_SIZE; i++)
        sum += buffer[i];
    return (void *)(size_t)sum;
}

// Each frame hands its own buffer to the next call, so every frame stays live
// and the compiler cannot turn the recursion into a loop.
static unsigned recurse(unsigned depth, volatile unsigned char *caller_frame)
{
    volatile unsigned char frame[256];
    frame[0] = 1;
    frame[255] = caller_frame[0];
    if (depth == 0)
        return frame[255];
    return recurse(depth - 1, frame) + frame[0];
}

static void *deep_recursion(void *arg)
{
    unsigned depth = (unsigned)(size_t)arg;
    volatile unsigned char first[1] = {1};
    return (void *)(size_t)recurse(depth, first);
}

int main(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int rc = pthread_attr_setstacksize(&attr, STACK_SIZE);
    size_t reported = 0;
    pthread_attr_getstacksize(&attr, &reported);
    printf("setstacksize rc=%d getstacksize matches=%d\n", rc, reported == STACK_SIZE);

    unsigned long expected = 0;
    for (unsigned i = 0; i < BUFFER_SIZE; i++)
        expected += (unsigned char)(i * 7u + 3u);

    pthread_t t;
    void *ret = NULL;
    pthread_create(&t, &attr, use_big_stack, NULL);
    pthread_join(t, &ret);
    int checksum_matches = (unsigned long)(size_t)ret == expected;
    printf("big stack buffer checksum matches=%d\n", checksum_matches);

    pthread_create(&t, &attr, deep_recursion, (void *)(size_t)4000);
    pthread_join(t, &ret);
    printf("recursion depth 4000 result=%u\n", (unsigned)(size_t)ret);
    pthread_attr_destroy(&attr);

    int ok = rc == 0 && checksum_matches && reported == STACK_SIZE && (unsigned long)(size_t)ret == 4001;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
