// Prints one line and exits with status 7: a run that did run shows both.
#include <stdio.h>

int main(void)
{
    puts("ran");
    return 7;
}
