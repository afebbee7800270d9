// Prints what isatty(3) says of stdin, stdout and stderr, on stderr (stdout may be /dev/null).
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    fprintf(stderr, "isatty %d %d %d\n", isatty(0), isatty(1), isatty(2));
    return 0;
}
