// Alternating writes to stdout and stderr, flushed explicitly after each, from
// main and from a second thread; both streams must arrive complete and in order.
#include <pthread.h>
#include <stdio.h>

static void write_both(const char *who, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        fprintf(stdout, "%s out %d\n", who, i);
        fflush(stdout);
        fprintf(stderr, "%s err %d\n", who, i);
        fflush(stderr);
    }
}

static void *from_thread(void *arg)
{
    (void)arg;
    write_both("thread", 5);
    return NULL;
}

int main(void)
{
    write_both("main", 5);
    pthread_t t;
    pthread_create(&t, NULL, from_thread, NULL);
    pthread_join(t, NULL);
    // stderr is unbuffered: a partial line without newline must still appear.
    fputs("main err no newline", stderr);
    fputs("main out done\n", stdout);
    return 0;
}
