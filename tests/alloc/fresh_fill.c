/* The trap hunt: threads allocate blocks that often need freshly grown memory and fill them at
 * once with memset/memcpy (memory.fill/copy), the pattern that trapped "memory access out of
 * bounds" in V8 when one thread used memory another had just grown. Short on purpose: run it
 * many times (tests/alloc/trap-hunt.sh). Prints "ok" and the number of grows when it survives.
 *
 * usage: fresh_fill [threads=2] [rounds=40] */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__wasm__)
__attribute__((weak)) size_t spindle_memory_grow_count(void);
#endif

static int rounds = 40;

static void *filler(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    void *keep[8] = {0};
    for (int r = 0; r < rounds; r++) {
        size_t size = ((size_t)(r * 7 + id * 13) % 16 + 1) * 48 * 1024; /* 48 KiB .. 768 KiB */
        unsigned char *p = malloc(size);
        if (!p) {
            fprintf(stderr, "malloc(%zu) failed\n", size);
            exit(2);
        }
        memset(p, (int)(r & 0xff), size);
        unsigned char *q = malloc(size);
        if (!q) {
            fprintf(stderr, "malloc(%zu) failed\n", size);
            exit(2);
        }
        memcpy(q, p, size);
        if (q[size - 1] != (unsigned char)(r & 0xff)) {
            fprintf(stderr, "copy lost bytes\n");
            exit(3);
        }
        free(p);
        free(keep[r % 8]);
        keep[r % 8] = q; /* some blocks stay live, so memory keeps growing */
    }
    for (int i = 0; i < 8; i++)
        free(keep[i]);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    if (argc > 2)
        rounds = atoi(argv[2]);
    pthread_t t[64];
    if (threads < 1 || threads > 64)
        return 1;
    for (int i = 0; i < threads; i++)
        if (pthread_create(&t[i], NULL, filler, (void *)(uintptr_t)i) != 0)
            return 1;
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    long long grows = -1;
#if defined(__wasm__)
    if (spindle_memory_grow_count)
        grows = (long long)spindle_memory_grow_count();
#endif
    printf("ok, memory grew %lld times\n", grows);
    return 0;
}
