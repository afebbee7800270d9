// The smallest program that uses what Spindle adds: a thread, a file, stdout. Its module size is
// the fixed cost of the runtime (bench/size/code-size.js).
#include <pthread.h>
#include <stdio.h>

static void *say_hello(void *arg)
{
    puts("hello from a thread");
    return arg;
}

int main(void)
{
    pthread_t thread;
    if (pthread_create(&thread, NULL, say_hello, NULL) != 0)
        return 1;
    pthread_join(thread, NULL);
    FILE *f = fopen("/tmp/hello.txt", "w");
    if (!f || fputs("hello\n", f) < 0 || fclose(f) != 0)
        return 1;
    puts("hello from main");
    return 0;
}
