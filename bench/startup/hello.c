/* The start-up experiment's program without threads (bench/startup/suite.js). */
#include <stdio.h>

int main(void)
{
    printf("hello, world\n");
    return 0;
}
