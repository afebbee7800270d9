/* The start-up experiment's program with one thread: a pthread writes a file (argv[1], default
 * /tmp/hello.txt), main joins it and says what it did (bench/startup/suite.js). */
#include <pthread.h>
#include <stdio.h>

static void *write_file(void *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return (void *)1;
    fputs("hello from a thread\n", f);
    return fclose(f) ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
    pthread_t thread;
    void *failed;
    if (pthread_create(&thread, NULL, write_file, argc > 1 ? argv[1] : "/tmp/hello.txt"))
        return 1;
    pthread_join(thread, &failed);
    printf("hello, world (%s)\n", failed ? "the thread could not write its file" : "a thread wrote a file");
    return failed ? 1 : 0;
}
