// Several threads allocate, fill, verify and free blocks of many sizes at the
// same time, and hand blocks to a neighbour thread that frees them (a free on
// a thread other than the allocating one). Any overlap or lost byte shows up
// as a pattern mismatch.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define SLOTS 256
#define STEPS 20000
#define HANDOFF 64

struct block {
    unsigned char *data;
    size_t size;
    unsigned char pattern;
};

struct worker {
    int index;
    uint32_t random_state;
    struct block handoff[HANDOFF]; // allocated by this thread, freed by the next one
    long mismatches;
    long allocations;
};

static struct worker workers[THREADS];
static pthread_barrier_t handoff_ready;

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static size_t pick_size(uint32_t r)
{
    // Mostly small, sometimes medium, rarely large blocks.
    if (r % 100 < 80)
        return 1 + r % 256;
    if (r % 100 < 98)
        return 257 + r % 8192;
    return 65536 + r % 200000;
}

static int verify(const struct block *b)
{
    for (size_t i = 0; i < b->size; i++)
        if (b->data[i] != (unsigned char)(b->pattern + i))
            return 0;
    return 1;
}

static int fill(struct block *b, size_t size, unsigned char pattern)
{
    b->data = malloc(size);
    if (!b->data)
        return 0;
    b->size = size;
    b->pattern = pattern;
    for (size_t i = 0; i < size; i++)
        b->data[i] = (unsigned char)(pattern + i);
    return 1;
}

static void *churn(void *arg)
{
    struct worker *me = arg;
    struct block slots[SLOTS];
    memset(slots, 0, sizeof slots);
    for (int step = 0; step < STEPS; step++) {
        uint32_t r = next_random(&me->random_state);
        struct block *slot = &slots[r % SLOTS];
        if (slot->data) {
            if (!verify(slot))
                me->mismatches++;
            free(slot->data);
            slot->data = NULL;
        }
        if (fill(slot, pick_size(next_random(&me->random_state)), (unsigned char)r))
            me->allocations++;
    }
    // calloc must hand back zeroed memory even when reusing freed blocks.
    for (int i = 0; i < 32; i++) {
        size_t n = 1 + next_random(&me->random_state) % 4096;
        unsigned char *zeroed = calloc(n, 1);
        for (size_t k = 0; zeroed && k < n; k++)
            if (zeroed[k] != 0)
                me->mismatches++;
        free(zeroed);
    }
    // realloc keeps the old contents when growing and shrinking.
    struct block grown;
    if (fill(&grown, 100, 7)) {
        for (size_t size = 200; size < 100000; size *= 3) {
            unsigned char *moved = realloc(grown.data, size);
            if (!moved)
                break;
            for (size_t k = 0; k < 100; k++)
                if (moved[k] != (unsigned char)(7 + k))
                    me->mismatches++;
            grown.data = moved;
        }
        unsigned char *shrunk = realloc(grown.data, 50);
        if (shrunk) {
            grown.data = shrunk;
            for (size_t k = 0; k < 50; k++)
                if (shrunk[k] != (unsigned char)(7 + k))
                    me->mismatches++;
        }
        free(grown.data);
    }
    for (int i = 0; i < HANDOFF; i++)
        if (!fill(&me->handoff[i], pick_size(next_random(&me->random_state)), (unsigned char)i))
            me->handoff[i].data = NULL;
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].data && !verify(&slots[i]))
            me->mismatches++;
        free(slots[i].data);
    }
    pthread_barrier_wait(&handoff_ready);
    struct worker *previous = &workers[(me->index + THREADS - 1) % THREADS];
    for (int i = 0; i < HANDOFF; i++) {
        if (previous->handoff[i].data && !verify(&previous->handoff[i]))
            me->mismatches++;
        free(previous->handoff[i].data);
    }
    return NULL;
}

int main(void)
{
    pthread_barrier_init(&handoff_ready, NULL, THREADS);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i].index = i;
        workers[i].random_state = 12345u + (uint32_t)i * 777u;
        pthread_create(&threads[i], NULL, churn, &workers[i]);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&handoff_ready);
    long mismatches = 0, allocations = 0;
    for (int i = 0; i < THREADS; i++) {
        mismatches += workers[i].mismatches;
        allocations += workers[i].allocations;
    }
    printf("allocations=%ld mismatches=%ld\n", allocations, mismatches);
    int ok = mismatches == 0 && allocations == (long)THREADS * STEPS;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
