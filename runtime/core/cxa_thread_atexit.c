// __cxa_thread_atexit: destructors of C++ thread_local objects. libc++abi only provides it on
// Linux and Fuchsia. Each thread keeps its list; a pthread key's destructor runs it (newest
// first) when the thread ends; the main thread's list runs at exit().
#include <pthread.h>
#include <stdlib.h>

struct thread_dtor {
    void (*dtor)(void *);
    void *obj;
    struct thread_dtor *next;
};

static _Thread_local struct thread_dtor *dtors;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void run_dtors(void *unused)
{
    (void)unused;
  // A destructor may construct new thread_locals: keep going until the list stays empty.
    while (dtors) {
        struct thread_dtor *d = dtors;
        dtors = d->next;
        d->dtor(d->obj);
        free(d);
    }
}

static void run_main_dtors(void) { run_dtors(0); }

static void create_key(void)
{
    pthread_key_create(&key, run_dtors);
    atexit(run_main_dtors);
}

int __cxa_thread_atexit(void (*dtor)(void *), void *obj, void *dso)
{
    (void)dso;
    pthread_once(&key_once, create_key);
    struct thread_dtor *d = malloc(sizeof *d);
    if (!d)
        return -1;
    *d = (struct thread_dtor){dtor, obj, dtors};
    dtors = d;
    pthread_setspecific(key, d); // any non-null value makes the key's destructor run
    return 0;
}
