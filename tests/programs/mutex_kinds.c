// Recursive and error-checking mutexes, and trylock seen from the owner and
// from another thread.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t recursive_lock;
static pthread_mutex_t normal_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *errname(int rc)
{
    switch (rc) {
    case 0:
        return "0";
    case EBUSY:
        return "EBUSY";
    case EDEADLK:
        return "EDEADLK";
    case EPERM:
        return "EPERM";
    default:
        return "other";
    }
}

static void *trylock_recursive_from_other(void *arg)
{
    (void)arg;
    int rc = pthread_mutex_trylock(&recursive_lock);
    if (rc == 0)
        pthread_mutex_unlock(&recursive_lock);
    return (void *)(size_t)rc;
}

static void *trylock_normal_from_other(void *arg)
{
    (void)arg;
    int rc = pthread_mutex_trylock(&normal_lock);
    if (rc == 0)
        pthread_mutex_unlock(&normal_lock);
    return (void *)(size_t)rc;
}

static int run_and_get(void *(*fn)(void *))
{
    pthread_t t;
    void *ret;
    pthread_create(&t, NULL, fn, NULL);
    pthread_join(t, &ret);
    return (int)(size_t)ret;
}

int main(void)
{
    int failures = 0;
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&recursive_lock, &attr);

    int a = pthread_mutex_lock(&recursive_lock);
    int b = pthread_mutex_lock(&recursive_lock);
    int c = pthread_mutex_trylock(&recursive_lock);
    printf("recursive: lock=%s lock again=%s trylock by owner=%s\n", errname(a), errname(b), errname(c));
    failures += a != 0 || b != 0 || c != 0;
    int other = run_and_get(trylock_recursive_from_other);
    printf("recursive: trylock by other thread while held 3 deep=%s\n", errname(other));
    failures += other != EBUSY;
    pthread_mutex_unlock(&recursive_lock);
    pthread_mutex_unlock(&recursive_lock);
    other = run_and_get(trylock_recursive_from_other);
    printf("recursive: trylock by other thread while held 1 deep=%s\n", errname(other));
    failures += other != EBUSY;
    pthread_mutex_unlock(&recursive_lock);
    other = run_and_get(trylock_recursive_from_other);
    printf("recursive: trylock by other thread after full unlock=%s\n", errname(other));
    failures += other != 0;
    pthread_mutex_destroy(&recursive_lock);

    pthread_mutex_lock(&normal_lock);
    other = run_and_get(trylock_normal_from_other);
    printf("normal: trylock by other thread while held=%s\n", errname(other));
    failures += other != EBUSY;
    pthread_mutex_unlock(&normal_lock);
    other = run_and_get(trylock_normal_from_other);
    printf("normal: trylock by other thread after unlock=%s\n", errname(other));
    failures += other != 0;

    pthread_mutex_t checking_lock;
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&checking_lock, &attr);
    pthread_mutex_lock(&checking_lock);
    int relock = pthread_mutex_lock(&checking_lock);
    pthread_mutex_unlock(&checking_lock);
    int unlock_unowned = pthread_mutex_unlock(&checking_lock);
    printf("errorcheck: relock by owner=%s unlock when unlocked=%s\n", errname(relock),
           errname(unlock_unowned));
    failures += relock != EDEADLK || unlock_unowned != EPERM;
    pthread_mutex_destroy(&checking_lock);
    pthread_mutexattr_destroy(&attr);

    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
