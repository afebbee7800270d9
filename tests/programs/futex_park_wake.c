// A thread parks with memory.atomic.wait32 (no timeout) the way Rust std's Thread::park does,
// from a loop that first checks whether it was selected; another thread selects it and wakes it.
// Node 20's baseline compiler (Liftoff) lost this wake-up (docs/HOST.md): the waiter slept for
// good although the waker saw it parked and notified. Wasm only (the wait/notify builtins).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { PARKED = -1, EMPTY = 0, NOTIFIED = 1 };

struct parker {
    int strong, weak;
    long long id;
    int name, pad;
    int state;
};
struct waiter {
    int strong, weak;
    struct parker *parker;
    int selected;
};

static struct waiter *waiter;

__attribute__((noinline)) static void park(struct parker **handle)
{
    struct parker *p = *handle;
    if (__atomic_fetch_sub(&p->state, 1, __ATOMIC_ACQUIRE) == NOTIFIED)
        return;
    for (;;) {
        __builtin_wasm_memory_atomic_wait32(&p->state, PARKED, -1);
        int notified = NOTIFIED;
        if (__atomic_compare_exchange_n(&p->state, &notified, EMPTY, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
            return;
    }
}

__attribute__((noinline)) static void unpark(struct parker *p)
{
    if (__atomic_exchange_n(&p->state, NOTIFIED, __ATOMIC_RELEASE) == PARKED) {
        __builtin_wasm_memory_atomic_notify(&p->state, 1);
    }
}

__attribute__((noinline)) static int wait_until_selected(struct waiter *w)
{
    for (;;) {
        int selected = __atomic_load_n(&w->selected, __ATOMIC_ACQUIRE);
        if (selected)
            return selected;
        park(&w->parker);
    }
}

static void *selector(void *arg)
{
    (void)arg;
    usleep(50000); // (usually the waiter is parked by now; the result is the same if not)
    int none = 0;
    __atomic_compare_exchange_n(&waiter->selected, &none, 7, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    unpark(waiter->parker);
    return 0;
}

int main(void)
{
    waiter = calloc(1, sizeof *waiter);
    waiter->parker = calloc(1, sizeof *waiter->parker);
    pthread_t t;
    if (pthread_create(&t, 0, selector, 0))
        return 1;
    int selected = wait_until_selected(waiter);
    pthread_join(t, 0);
    printf("selected %d\n", selected);
    return 0;
}
