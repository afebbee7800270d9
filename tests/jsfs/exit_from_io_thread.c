/* --fs=js: a thread does file I/O, then calls exit(3) while the C main is blocked in
 * pthread_join (in Node on the host's main thread): the program ends with code 3. */
#include <pthread.h>
#include <stdlib.h>

#include "../fs/conformance/conformance.h"

static void *worker(void *arg)
{
    (void)arg;
    SHOW("write from thread", write_text("from-thread", "data"));
    char buf[16];
    printf("read back: %s\n", read_text("from-thread", buf, sizeof buf));
    fflush(stdout);
    exit(3);
}

int main(void)
{
    enter_scratch_dir();
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    printf("not reached\n");
    return 0;
}
