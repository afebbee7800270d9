/* Host check, no allocator involved: one thread grows wasm memory page by page and
 * publishes each new page (seq_cst atomic); the other threads memset (memory.fill) it.
 * Seen on Node 20: the memset traps "memory access out of bounds" although the page was
 * grown before it was published; plain stores to the same page do not trap. Any
 * multithreaded program whose allocator grows memory can hit this.
 *
 * usage: wasm_grow_fill_race [threads=4]; prints "ok, memory N pages" when it survives.
 * build: bin/spindle cc -O2 tests/alloc/wasm_grow_fill_race.c -o race.wasm */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_uintptr_t latest; /* address of the newest page, 0 before the first */
static atomic_int done;

static void *grower(void *arg)
{
    for (int i = 0; i < 3000; i++) {
        size_t old = __builtin_wasm_memory_grow(0, 1);
        if (old == (size_t)-1)
            break;
        atomic_store(&latest, old * 65536);
        for (volatile int k = 0; k < 2000; k++) /* give the fillers time to use it */
            ;
    }
    atomic_store(&done, 1);
    return arg;
}

static void *filler(void *arg)
{
    uintptr_t last = 0;
    while (!atomic_load(&done)) {
        uintptr_t page = atomic_load(&latest);
        if (page != last) {
            memset((char *)page + 8, 3, 60000);
            last = page;
        }
    }
    return arg;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    pthread_t t[64];
    if (n < 2 || n > 64)
        n = 4;
    pthread_create(&t[0], NULL, grower, NULL);
    for (int i = 1; i < n; i++)
        pthread_create(&t[i], NULL, filler, NULL);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    printf("ok, memory %zu pages\n", (size_t)__builtin_wasm_memory_size(0));
    return 0;
}
