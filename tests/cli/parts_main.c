#include <math.h>
#include <stdio.h>
#include "parts.h"
int main(void)
{
    printf("%s %d %.1f\n", GREETING, twice(21), sqrt(16.0));
    return 0;
}
