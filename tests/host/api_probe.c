// Exercises the host API: reads stdin, reports the core count the host gave, argv and env, and
// on request traps in a thread or exits from one.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *trap(void *arg)
{
    (void)arg;
    __builtin_trap();
}
static void *leave(void *arg) { exit((int)(long)arg); }

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "trap") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, trap, NULL);
        pthread_join(t, NULL);
    }
    if (argc > 1 && strcmp(argv[1], "exit") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, leave, (void *)7L);
        for (;;)
            sleep(1);
    }
    char line[256];
    size_t lines = 0;
    while (fgets(line, sizeof line, stdin))
        lines++;
    printf("cores=%ld lines=%zu argv1=%s env=%s\n", sysconf(_SC_NPROCESSORS_ONLN), lines,
           argc > 1 ? argv[1] : "-", getenv("PROBE") ? getenv("PROBE") : "-");
    return 0;
}
