/* Several threads each open, append one byte to, and close one file, many times over: every
 * open must succeed while the others open and close it (on OPFS the last close of a file and
 * the next open may be served by different I/O workers, docs/OPFS.md). */
#include <pthread.h>
#include <stdint.h>

#include "conformance.h"

#define THREADS 6
#define ROUNDS 100

static void *reopener(void *arg)
{
    int t = (int)(intptr_t)arg;
    int failed = 0;
    for (int i = 0; i < ROUNDS; i++) {
        int fd = open("log", O_WRONLY | O_APPEND);
        if (fd < 0) {
            printf("thread %d: open log: %s\n", t, errno_name(errno));
            failed++;
            continue;
        }
        char c = (char)('a' + t);
        if (write(fd, &c, 1) != 1) {
            printf("thread %d: append: %s\n", t, errno_name(errno));
            failed++;
        }
        close(fd);
    }
    return (void *)(intptr_t)failed;
}

int main(void)
{
    enter_scratch_dir();
    close(open("log", O_WRONLY | O_CREAT | O_TRUNC, 0644));
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, reopener, (void *)(intptr_t)t);
    int failed = 0;
    for (int t = 0; t < THREADS; t++) {
        void *n;
        pthread_join(threads[t], &n);
        failed += (int)(intptr_t)n;
    }
    printf("failed opens or appends: %d\n", failed);
    printf("log size: %lld (expected %d)\n", size_of("log"), THREADS * ROUNDS);
    show_listing("scratch", ".");
    return 0;
}
