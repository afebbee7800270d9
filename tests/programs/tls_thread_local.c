// C11 _Thread_local: every thread starts from the initial value and its
// writes are invisible to other threads, including for arrays and pointers
// taken to the thread's own copy.
#include <pthread.h>
#include <stdio.h>

#define THREADS 8

static _Thread_local int counter = 5;
static _Thread_local int scratch[16] = {1, 2, 3};
static _Thread_local int zeroed;

struct report {
    int started_with;
    int zeroed_started_with;
    int scratch_start_sum;
    int final_counter;
    int pointer_saw_own_copy;
};

static void *bump_locals(void *arg) {
    struct report *report = arg;
    report->started_with = counter;
    report->zeroed_started_with = zeroed;
    report->scratch_start_sum = scratch[0] + scratch[1] + scratch[2] + scratch[15];
    int *mine = &counter;
    for (int i = 0; i < 1000; i++) {
        counter++;
        scratch[i % 16] += i;
        zeroed++;
    }
    report->final_counter = counter;
    report->pointer_saw_own_copy = *mine == counter;
    return NULL;
}

int main(void) {
    counter = 100; // main's copy only
    scratch[15] = 50;
    pthread_t threads[THREADS];
    struct report reports[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, bump_locals, &reports[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    int failures = 0;
    for (int i = 0; i < THREADS; i++) {
        printf("thread %d: start=%d zeroed_start=%d scratch_start_sum=%d final=%d own_copy=%d\n", i,
               reports[i].started_with, reports[i].zeroed_started_with, reports[i].scratch_start_sum,
               reports[i].final_counter, reports[i].pointer_saw_own_copy);
        failures += reports[i].started_with != 5 || reports[i].zeroed_started_with != 0 ||
                    reports[i].scratch_start_sum != 6 || reports[i].final_counter != 1005 ||
                    !reports[i].pointer_saw_own_copy;
    }
    printf("main: counter=%d scratch[15]=%d zeroed=%d\n", counter, scratch[15], zeroed);
    failures += counter != 100 || scratch[15] != 50 || zeroed != 0;
    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
