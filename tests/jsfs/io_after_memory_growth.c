/* --fs=js: a pthread grows the wasm memory (a 48 MiB allocation) and writes from, then reads
 * into, buffers at addresses the host thread's view did not cover before; the host must use
 * the grown memory. Main then reads the file back itself. */
#include <pthread.h>
#include <stdint.h>

#include "../fs/conformance/conformance.h"

#define BYTES (48u << 20)

static void *grower(void *arg)
{
    (void)arg;
    unsigned char *big = malloc(BYTES);
    if (!big)
        return (void *)0;
    for (size_t i = 0; i < BYTES; i++)
        big[i] = (unsigned char)(i * 31 + (i >> 20));
    int fd = open("big", O_RDWR | O_CREAT | O_TRUNC, 0644);
    ssize_t w = write(fd, big + BYTES - 4096, 4096); /* the highest addresses */
    memset(big + BYTES - 4096, 0, 4096);
    ssize_t r = pread(fd, big + BYTES - 4096, 4096, 0);
    close(fd);
    int same = 1;
    for (size_t i = BYTES - 4096; i < BYTES; i++)
        same &= big[i] == (unsigned char)(i * 31 + (i >> 20));
    free(big);
    return (void *)(intptr_t)(w == 4096 && r == 4096 && same);
}

int main(void)
{
    enter_scratch_dir();
    pthread_t t;
    pthread_create(&t, NULL, grower, NULL);
    void *ok;
    pthread_join(t, &ok);
    printf("thread wrote and read back through grown memory: %d\n", (int)(intptr_t)ok);
    printf("file size seen by main: %lld\n", size_of("big"));
    unlink("big");
    return 0;
}
