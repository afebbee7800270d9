/* Out-of-memory behaviour: allocate until malloc returns NULL, check errno == ENOMEM and
 * that nothing trapped, free everything, and check the memory is usable again, for several
 * size mixes. Meant for wasm under a small --max-memory (e.g. 32 MiB); natively the
 * reservation is large, so run it with big blocks only (mode "large"), which are never
 * touched.
 *
 * usage: oom [mixed|large] */
#include "alloc_names.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_BLOCKS (1 << 20)
/* big blocks: 1 GiB natively (a 32 GiB reservation), 1 MiB in a 32-bit wasm memory */
#define BIG (sizeof(void *) == 4 ? (size_t)1 << 20 : (size_t)1 << 30)

static void *blocks[MAX_BLOCKS];
static int passed, failed;

static void check(const char *what, bool ok)
{
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    ok ? passed++ : failed++;
}

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Fill memory with blocks of the given size mix; returns how many were allocated. */
static size_t exhaust(int mix, uint32_t *seed, size_t *bytes, bool *enomem)
{
    size_t n = 0;
    *bytes = 0;
    for (; n < MAX_BLOCKS; n++) {
        size_t size;
        switch (mix) {
        case 0:
            size = 16 + rnd(seed) % 2000;
            break;         /* small */
        case 1:
            size = 1 + rnd(seed) % (256 * 1024);
            break;  /* mixed up to 256 KiB */
        default:
            size = BIG;
            break;                           /* untouched */
        }
        errno = 0;
        void *p = T_MALLOC(size);
        if (!p) {
            *enomem = errno == ENOMEM;
            return n;
        }
        if (mix < 2)
            memset(p, 0x5A, size < 64 ? size : 64);
        blocks[n] = p;
        *bytes += size;
    }
    *enomem = false;
    return n;
}

int main(int argc, char **argv)
{
    bool large_only = argc > 1 && !strcmp(argv[1], "large");
    uint32_t seed = 12345;
    int first = large_only ? 2 : 0, last = 2;
    for (int mix = first; mix <= last; mix++) {
        for (int round = 0; round < 2; round++) {
            size_t bytes, n;
            bool enomem;
            n = exhaust(mix, &seed, &bytes, &enomem);
            char what[160];
            snprintf(what, sizeof what, "mix %d round %d: %zu blocks (%zu KiB) then NULL with ENOMEM", mix,
                     round, n, bytes >> 10);
            check(what, n > 0 && n < MAX_BLOCKS && enomem);
            errno = 0;
            void *c = T_CALLOC(SIZE_MAX / 4, 8);
            check("calloc overflow while full is NULL with ENOMEM", !c && errno == ENOMEM);
            for (size_t i = 0; i < n; i++)
                T_FREE(blocks[i]);
        }
        /* after freeing, a big block must fit again: memory came back to the pool */
        void *p = T_MALLOC(mix == 2 ? BIG : (size_t)4 << 20);
        check("memory reusable after freeing everything", p != NULL);
        T_FREE(p);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
