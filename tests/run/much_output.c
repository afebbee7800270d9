// Writes argv[1] numbered lines to stdout, then exits with status 5: a run that ends the moment
// main returns must have written every one (tests/exit-status.test.js).
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long lines = argc > 1 ? atol(argv[1]) : 1;
    for (long i = 0; i < lines; i++)
        printf("line %ld of the run's output\n", i);
    return 5;
}
