// A pthread that recurses past its 256 KiB stack must be stopped with a message naming the
// thread and its limit, before it writes a byte of the heap blocks allocated just before its
// stack, so lying below it (each level checks them all). Unchecked, it overwrote them silently.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 64
#define BLOCK_SIZE 4096
static unsigned char *blocks[BLOCKS];

static void check_blocks(int depth) {
  for (int b = 0; b < BLOCKS; b++)
    for (int i = 0; i < BLOCK_SIZE; i++)
      if (blocks[b][i] != (unsigned char)b) {
        printf("heap block %d corrupted at depth %d\n", b, depth);
        exit(1);
      }
}

static int recurse(int depth) {
  volatile unsigned char frame[1024];
  for (int i = 0; i < 1024; i += 16) frame[i] = (unsigned char)depth;
  check_blocks(depth);
  return recurse(depth + 1) + frame[depth % 1024];
}

static void *body(void *arg) {
  (void)arg;
  printf("recursing\n");
  fflush(stdout);
  return (void *)(long)recurse(0);
}

int main(void) {
  for (int b = 0; b < BLOCKS; b++) {
    blocks[b] = malloc(BLOCK_SIZE);
    memset(blocks[b], b, BLOCK_SIZE);
  }
  pthread_t t; // its stack (the default size) comes from the same heap, after the blocks
  if (pthread_create(&t, NULL, body, NULL)) return 2;
  pthread_join(t, NULL);
  printf("the thread returned\n");
  return 0;
}
