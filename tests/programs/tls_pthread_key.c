// pthread_key_create destructors run once per exiting thread that holds a
// non-NULL value, are skipped for NULL values, and receive the right value.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8

static pthread_key_t key;
static pthread_key_t unused_key;
static atomic_int destructor_runs;
static atomic_int destructor_value_sum;
static atomic_int unused_destructor_runs;

static void destroy_value(void *value)
{
    int *number = value;
    atomic_fetch_add(&destructor_runs, 1);
    atomic_fetch_add(&destructor_value_sum, *number);
    free(number);
}

static void destroy_unused(void *value)
{
    (void)value;
    atomic_fetch_add(&unused_destructor_runs, 1);
}

static void *set_value(void *arg)
{
    int index = (int)(size_t)arg;
    int before = pthread_getspecific(key) == NULL;
    // Odd threads leave the key NULL, so their destructor must not run.
    if (index % 2 == 0) {
        int *number = malloc(sizeof *number);
        *number = index + 1;
        pthread_setspecific(key, number);
    }
    int *seen = pthread_getspecific(key);
    int ok = before && (index % 2 == 0 ? seen != NULL && *seen == index + 1 : seen == NULL);
    return (void *)(size_t)ok;
}

int main(void)
{
    if (pthread_key_create(&key, destroy_value) != 0 ||
        pthread_key_create(&unused_key, destroy_unused) != 0) {
        printf("pthread_key_create failed\n");
        return 1;
    }
    static int main_value = 1000;
    pthread_setspecific(key, &main_value);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, set_value, (void *)(size_t)i);
    int all_saw_own_value = 1;
    for (int i = 0; i < THREADS; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        if (!ret)
            all_saw_own_value = 0;
    }
    int *main_seen = pthread_getspecific(key);
    printf("threads saw their own value: %d\n", all_saw_own_value);
    printf("destructor runs: %d (values sum %d)\n", atomic_load(&destructor_runs),
           atomic_load(&destructor_value_sum));
    printf("destructor for never-set key runs: %d\n", atomic_load(&unused_destructor_runs));
    printf("main still sees its value: %d\n", main_seen == &main_value);
    pthread_key_delete(unused_key);
    int ok = all_saw_own_value && atomic_load(&destructor_runs) == THREADS / 2 &&
             atomic_load(&destructor_value_sum) == 1 + 3 + 5 + 7 &&
             atomic_load(&unused_destructor_runs) == 0 && main_seen == &main_value;
    printf("%s\n", ok ? "ok" : "FAILED");
    // main's destructor is deliberately not expected: exit() does not run it.
    pthread_setspecific(key, NULL);
    pthread_key_delete(key);
    return ok ? 0 : 1;
}
