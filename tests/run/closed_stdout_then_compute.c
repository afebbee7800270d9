/* Writes until stdout's reader is gone, takes the EPIPE as a program that ignores SIGPIPE
 * would, then computes on without writing: the run must still end with 141 at once, as SIGPIPE's
 * default action ends a native one (tests/main-thread.test.js). */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    static const char line[] = "a line of output\n";
    for (int i = 0; i < 100000; i++)
        if (write(1, line, sizeof line - 1) < 0)
            break;
    volatile unsigned long spins = 0;
    for (;;)
        spins++;
}
