// aligned_alloc, posix_memalign and plain malloc honour their alignment
// guarantees for many sizes, from several threads at once; the blocks do not
// overlap (each is filled and checked). Only booleans and counts are printed.
#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define BLOCKS 200

struct result {
    int misaligned;
    int corrupted;
    int failed;
};

static void *allocate_aligned(void *arg)
{
    struct result *r = arg;
    void *blocks[BLOCKS];
    size_t sizes[BLOCKS];
    for (int i = 0; i < BLOCKS; i++) {
        size_t alignment = (size_t)1 << (3 + i % 10); // 8 .. 4096
        sizes[i] = 1 + (size_t)(i * 97) % 3000;
        void *p = NULL;
        if (i % 3 == 0) {
            // aligned_alloc wants a size that is a multiple of the alignment.
            sizes[i] = (sizes[i] + alignment - 1) / alignment * alignment;
            p = aligned_alloc(alignment, sizes[i]);
        } else if (i % 3 == 1) {
            if (posix_memalign(&p, alignment, sizes[i]) != 0)
                p = NULL;
        } else {
            p = malloc(sizes[i]);
            alignment = alignof(max_align_t);
        }
        if (!p) {
            r->failed++;
            blocks[i] = NULL;
            continue;
        }
        if ((uintptr_t)p % alignment != 0)
            r->misaligned++;
        memset(p, i & 0xff, sizes[i]);
        blocks[i] = p;
    }
    for (int i = 0; i < BLOCKS; i++) {
        unsigned char *p = blocks[i];
        if (!p)
            continue;
        for (size_t k = 0; k < sizes[i]; k++)
            if (p[k] != (unsigned char)(i & 0xff)) {
                r->corrupted++;
                break;
            }
        free(p);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    struct result results[THREADS];
    memset(results, 0, sizeof results);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, allocate_aligned, &results[i]);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    struct result total = {0, 0, 0};
    for (int i = 0; i < THREADS; i++) {
        total.misaligned += results[i].misaligned;
        total.corrupted += results[i].corrupted;
        total.failed += results[i].failed;
    }
    printf("blocks=%d misaligned=%d corrupted=%d failed=%d\n", THREADS * BLOCKS, total.misaligned,
           total.corrupted, total.failed);
    int ok = total.misaligned == 0 && total.corrupted == 0 && total.failed == 0;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
