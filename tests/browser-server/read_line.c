// Says it is ready, then echoes one line of stdin: the run the attacks in
// tests/browser-server.test.js aim at while it waits for its input.
#include <stdio.h>

int main(void)
{
    printf("ready\n");
    fflush(stdout);
    char line[256];
    if (!fgets(line, sizeof line, stdin))
        return 2;
    printf("got: %s", line);
    return 0;
}
