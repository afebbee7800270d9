/* tests/run/exit_status.c in a module over 1 MiB (a large constant table): such a module is
   compiled off the event loop (host/compile/compilation.js), which tests/run-exit.test.js stalls. */
#include <stdio.h>

static const char table[1200000] = "ran";

int main(int argc, char **argv)
{
    (void)argv;
    puts(table + (argc > 5 ? 1000 : 0));
    return 7;
}
