// Says it is ready, then echoes each line of stdin to its end: the run the attacks in
// tests/browser-server.test.js aim at while it waits for its input.
#include <stdio.h>

int main(void)
{
    printf("ready\n");
    fflush(stdout);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        printf("got: %s", line);
        fflush(stdout);
    }
    return 0;
}
