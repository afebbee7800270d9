// argv and selected environment variables reach the program unchanged:
// spaces, empty strings, quotes and UTF-8 included.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show_env(const char *name)
{
    const char *value = getenv(name);
    if (value)
        printf("env %s=[%s] (%zu bytes)\n", name, value, strlen(value));
    else
        printf("env %s is unset\n", name);
}

int main(int argc, char **argv)
{
    printf("argc=%d\n", argc);
    // argv[0] differs between hosts, so only check that it exists.
    printf("argv[0] present: %d\n", argv[0] != NULL);
    for (int i = 1; i < argc; i++)
        printf("argv[%d]=[%s] (%zu bytes)\n", i, argv[i], strlen(argv[i]));
    printf("argv[argc] is NULL: %d\n", argv[argc] == NULL);
    show_env("SPINDLE_TEST_GREETING");
    show_env("SPINDLE_TEST_EMPTY");
    show_env("SPINDLE_TEST_EQUALS");
    show_env("SPINDLE_TEST_NEVER_SET");
    if (setenv("SPINDLE_TEST_SET_AT_RUNTIME", "yes", 1) == 0)
        show_env("SPINDLE_TEST_SET_AT_RUNTIME");
    unsetenv("SPINDLE_TEST_GREETING");
    show_env("SPINDLE_TEST_GREETING");
    return 0;
}
