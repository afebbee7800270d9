// C11 _Thread_local: every thread, the main thread included, starts from the
// initial values; each thread has its own copy at its own address; writes are
// invisible to other threads. errno is thread-local too.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 8

static _Thread_local int counter = 5;
static _Thread_local int scratch[16] = {1, 2, 3};
static _Thread_local int zeroed;

static int *main_counter_address;

struct report {
    int started_with;
    int zeroed_started_with;
    int scratch_start_sum;
    int final_counter;
    int pointer_saw_own_copy;
    int address_differs_from_main;
    int errno_kept;
};

static void *bump_locals(void *arg)
{
    struct report *report = arg;
    report->started_with = counter;
    report->zeroed_started_with = zeroed;
    report->scratch_start_sum = scratch[0] + scratch[1] + scratch[2] + scratch[15];
    report->address_differs_from_main = &counter != main_counter_address;
    int *mine = &counter;
    errno = ERANGE;
    for (int i = 0; i < 1000; i++) {
        counter++;
        scratch[i % 16] += i;
        zeroed++;
    }
    report->final_counter = counter;
    report->pointer_saw_own_copy = *mine == counter;
    report->errno_kept = errno == ERANGE;
    return NULL;
}

int main(void)
{
    // The main thread's copies must be initialised like any other thread's.
    int main_started_with = counter;
    int main_scratch_start_sum = scratch[0] + scratch[1] + scratch[2] + scratch[15];
    int main_zeroed_start = zeroed;
    printf("main: start=%d zeroed_start=%d scratch_start_sum=%d\n", main_started_with, main_zeroed_start,
           main_scratch_start_sum);
    int failures = main_started_with != 5 || main_zeroed_start != 0 || main_scratch_start_sum != 6;

    main_counter_address = &counter;
    counter = 100; // main's copy only
    scratch[15] = 50;
    errno = EINVAL;
    pthread_t threads[THREADS];
    struct report reports[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, bump_locals, &reports[i]);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    int main_errno_kept = errno == EINVAL;
    for (int i = 0; i < THREADS; i++) {
        printf("thread %d: start=%d zeroed_start=%d scratch_start_sum=%d final=%d own_copy=%d "
               "address_differs_from_main=%d errno_kept=%d\n",
               i, reports[i].started_with, reports[i].zeroed_started_with, reports[i].scratch_start_sum,
               reports[i].final_counter, reports[i].pointer_saw_own_copy,
               reports[i].address_differs_from_main, reports[i].errno_kept);
        failures += reports[i].started_with != 5 || reports[i].zeroed_started_with != 0 ||
                    reports[i].scratch_start_sum != 6 || reports[i].final_counter != 1005 ||
                    !reports[i].pointer_saw_own_copy || !reports[i].address_differs_from_main ||
                    !reports[i].errno_kept;
    }
    printf("main: counter=%d scratch[15]=%d zeroed=%d errno_kept=%d\n", counter, scratch[15], zeroed,
           main_errno_kept);
    failures += counter != 100 || scratch[15] != 50 || zeroed != 0 || !main_errno_kept;
    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
