/* --fs=js: a pthread starts more pthreads than the host has idle workers, all doing file I/O,
 * while the C main waits in pthread_join. In Node the new workers must be started by the host
 * thread from inside that wait (its event loop does not run while C code does). */
#include <pthread.h>
#include <stdint.h>

#include "../fs/conformance/conformance.h"

#define CHILDREN 10

static void *child(void *arg)
{
    int id = (int)(intptr_t)arg;
    char name[32], text[32], back[32];
    snprintf(name, sizeof name, "child-%d", id);
    snprintf(text, sizeof text, "child %d was here", id);
    if (write_text(name, text) != 0)
        return (void *)0;
    read_text(name, back, sizeof back);
    unlink(name);
    return (void *)(intptr_t)(strcmp(text, back) == 0);
}

static void *parent(void *arg)
{
    (void)arg;
    pthread_t t[CHILDREN];
    for (int i = 0; i < CHILDREN; i++)
        if (pthread_create(&t[i], NULL, child, (void *)(intptr_t)i) != 0)
            return (void *)-1;
    intptr_t ok = 0;
    for (int i = 0; i < CHILDREN; i++) {
        void *r;
        pthread_join(t[i], &r);
        ok += (intptr_t)r;
    }
    return (void *)ok;
}

int main(void)
{
    enter_scratch_dir();
    pthread_t p;
    pthread_create(&p, NULL, parent, NULL);
    void *ok;
    pthread_join(p, &ok);
    printf("children that wrote and read back their file: %d of %d\n", (int)(intptr_t)ok, CHILDREN);
    show_listing("scratch left empty", ".");
    return 0;
}
