// Main recursing past its 1 MiB stack (--stack-size) must end with "stack overflow", not with
// "memory access out of bounds" once the stack pointer wrapped below address 0.
#include <stdio.h>

static int recurse(int depth)
{
    volatile unsigned char frame[1024];
    for (int i = 0; i < 1024; i += 16)
        frame[i] = (unsigned char)depth;
    return recurse(depth + 1) + frame[depth % 1024];
}

int main(void)
{
    printf("recursing\n");
    fflush(stdout);
    return recurse(0);
}
