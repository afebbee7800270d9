// pthread_exit from a nested call ends only that thread, hands its value to
// pthread_join, and runs cleanup handlers and key destructors on the way out.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static pthread_key_t key;
static atomic_int destructor_runs;
static atomic_int cleanup_runs;
static int after_exit_reached;

static void count_destructor(void *value)
{
    (void)value;
    atomic_fetch_add(&destructor_runs, 1);
}

static void count_cleanup(void *arg)
{
    (void)arg;
    atomic_fetch_add(&cleanup_runs, 1);
}

static void leave_from_depth(int depth, long value);
// Called through a pointer: gcc otherwise flags a recursion whose only exit is
// pthread_exit as "infinite recursion".
static void (*volatile descend)(int, long) = leave_from_depth;

// The innermost call exits, several frames below the thread's start routine.
static void leave_from_depth(int depth, long value)
{
    if (depth > 0)
        descend(depth - 1, value);
    pthread_exit((void *)(size_t)value);
}

static void *exit_early(void *arg)
{
    long value = (long)(size_t)arg;
    static int marker;
    pthread_setspecific(key, &marker);
    pthread_cleanup_push(count_cleanup, NULL);
    leave_from_depth(5, value);
    after_exit_reached = 1;
    pthread_cleanup_pop(0);
    return NULL;
}

int main(void)
{
    pthread_key_create(&key, count_destructor);
    pthread_t threads[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, exit_early, (void *)(size_t)(i + 40));
    long sum = 0;
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        sum += (long)(size_t)ret;
    }
    printf("joined values sum: %ld (expected %d)\n", sum, 40 + 41 + 42 + 43);
    printf("cleanup handlers run: %d, key destructors run: %d, code after pthread_exit ran: %d\n",
           atomic_load(&cleanup_runs), atomic_load(&destructor_runs), after_exit_reached);
    int ok = sum == 166 && atomic_load(&cleanup_runs) == 4 && atomic_load(&destructor_runs) == 4 &&
             !after_exit_reached;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
