/* A thread writes DIR/from-thread.txt, main reads it back and prints it: `spindle run --mount`
 * runs this with DIR on a host directory (tests/main-thread.test.js). */
#include <pthread.h>
#include <stdio.h>

static const char *dir;

static void *write_file(void *arg)
{
    char path[512];
    snprintf(path, sizeof path, "%s/from-thread.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f || fputs("written by a thread\n", f) < 0 || fclose(f) != 0)
        return (void *)1;
    return arg;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: thread_writes_dir DIR\n", stderr);
        return 2;
    }
    dir = argv[1];
    pthread_t thread;
    void *failed = NULL;
    if (pthread_create(&thread, NULL, write_file, NULL) != 0 || pthread_join(thread, &failed) != 0 || failed)
        return 3;
    char path[512], line[64];
    snprintf(path, sizeof path, "%s/from-thread.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(line, sizeof line, f))
        return 4;
    fclose(f);
    printf("main read: %s", line);
    return 0;
}
