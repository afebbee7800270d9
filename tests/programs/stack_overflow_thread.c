// A pthread that recurses past its 256 KiB stack must be stopped with a message naming the
// thread and its limit, before it writes a byte of the heap blocks allocated just before its
// stack, so lying below it (each level checks them all). Unchecked, it overwrote them silently.
// With the argument `leaf` (tests/stack-check.test.js), levels of a few bytes each call a
// function with a 112-byte frame that calls nothing: LLVM computes such a frame (up to 128 bytes)
// from the stack pointer without writing it back, and it is that frame that crosses first. The
// bytes below the stack (the heap: this libc puts no guard area there) must stay as they were.
// With `own`, the thread is created with a 384 KiB stack of its own (pthread_attr_setstacksize),
// which --thread-stack-size does not set, and the message says so.
#define _GNU_SOURCE // pthread_getattr_np
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 64
#define BLOCK_SIZE 4096
static unsigned char *blocks[BLOCKS];

static void check_blocks(int depth)
{
    for (int b = 0; b < BLOCKS; b++)
        for (int i = 0; i < BLOCK_SIZE; i++)
            if (blocks[b][i] != (unsigned char)b) {
                printf("heap block %d corrupted at depth %d\n", b, depth);
                exit(1);
            }
}

static int recurse(int depth)
{
    volatile unsigned char frame[1024];
    for (int i = 0; i < 1024; i += 16)
        frame[i] = (unsigned char)depth;
    check_blocks(depth);
    return recurse(depth + 1) + frame[depth % 1024];
}

static int with_leaf;
static char *stack_low;
#define WATCHED 128
static char below_stack[WATCHED]; // copy of the bytes under the stack at the thread's start

static void check_below_stack(void)
{
    if (memcmp(stack_low - WATCHED, below_stack, WATCHED)) {
        printf("a frame was written below the stack\n");
        exit(1);
    }
}

__attribute__((noinline)) static int leaf(int depth)
{
    volatile unsigned char frame[112];
    for (int i = 0; i < 112; i++)
        frame[i] = (unsigned char)depth;
    return frame[depth % 112];
}

static int small_levels(int depth)
{
    volatile unsigned char frame[16];
    frame[0] = (unsigned char)depth;
    if ((char *)frame < stack_low + 4096) { // near the end: every level
        check_blocks(depth);
        check_below_stack();
    }
    int sum = leaf(depth);
    return small_levels(depth + 1) + frame[0] + sum;
}

static void *body(void *arg)
{
    (void)arg;
    printf("recursing\n");
    fflush(stdout);
    if (!with_leaf)
        return (void *)(long)recurse(0);
    pthread_attr_t attr;
    void *low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) || pthread_attr_getstack(&attr, &low, &size))
        return NULL;
    stack_low = low;
    memcpy(below_stack, stack_low - WATCHED, WATCHED);
    return (void *)(long)small_levels(0);
}

int main(int argc, char **argv)
{
    with_leaf = argc > 1 && strcmp(argv[1], "leaf") == 0;
    for (int b = 0; b < BLOCKS; b++) {
        blocks[b] = malloc(BLOCK_SIZE);
        memset(blocks[b], b, BLOCK_SIZE);
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (argc > 1 && strcmp(argv[1], "own") == 0)
        pthread_attr_setstacksize(&attr, 384 << 10);
    pthread_t t; // its stack (the default size) comes from the same heap, after the blocks
    if (pthread_create(&t, &attr, body, NULL))
        return 2;
    pthread_attr_destroy(&attr);
    pthread_join(t, NULL);
    printf("the thread returned\n");
    return 0;
}
