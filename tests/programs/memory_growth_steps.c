// Linear memory grows in large steps (spindle/memory.h): 192 MiB allocated in 64 KiB blocks takes
// a handful of memory.grow calls, not 3,000; and a grow too large for the maximum still grows by
// what is needed.
#include <spindle/memory.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    enum { BLOCK = 64 * 1024, BLOCKS = 3072 };
    static void *blocks[BLOCKS];
    size_t before = spindle_memory_grow_count();
    for (int i = 0; i < BLOCKS; i++) {
        blocks[i] = malloc(BLOCK);
        if (!blocks[i]) {
            printf("malloc failed at block %d\n", i);
            return 1;
        }
        memset(blocks[i], i & 0xff, BLOCK);
    }
    size_t grows = spindle_memory_grow_count() - before;
    printf("192 MiB in 64 KiB blocks: %s\n", grows >= 1 && grows <= 16 ? "few grows" : "too many grows");
    for (int i = 0; i < BLOCKS; i++)
        free(blocks[i]);

    // Near the maximum (256 MiB here) the step shrinks to what is needed.
    void *big = malloc(40u << 20);
    printf("40 MiB near the maximum: %s\n", big ? "ok" : "failed");
    free(big);
    return 0;
}
