// The value returned from main becomes the process exit code, after buffered
// output and atexit handlers (which run in reverse order of registration).
#include <stdio.h>
#include <stdlib.h>

static void first_registered(void) { printf("atexit: first registered, runs last\n"); }
static void second_registered(void) { printf("atexit: second registered, runs first\n"); }

int main(void)
{
    atexit(first_registered);
    atexit(second_registered);
    printf("main: returning 42\n");
    return 42;
}
