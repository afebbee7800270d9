// abort() ends the program with the abort code (134, as a shell reports
// SIGABRT) without running atexit handlers.
#include <stdio.h>
#include <stdlib.h>

static void must_not_run(void) { printf("atexit handler ran after abort\n"); }

int main(void)
{
    atexit(must_not_run);
    printf("main: calling abort\n");
    fflush(stdout);
    abort();
}
