/* --fs=js: a thread traps after file I/O while the C main waits in pthread_join: the program
 * ends with code 134 and the trap is reported (no native counterpart: natively this is SIGILL). */
#include <pthread.h>

#include "../fs/conformance/conformance.h"

static void *worker(void *arg)
{
    (void)arg;
    SHOW("write from thread", write_text("before-trap", "data"));
    fflush(stdout);
    __builtin_trap();
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
