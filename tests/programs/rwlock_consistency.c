// Readers under pthread_rwlock_rdlock must never see a half-done write: the
// writers keep two counters equal, readers check it. Also tryrdlock/trywrlock.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define WRITERS 2
#define READERS 3
#define WRITES_PER_WRITER 20000
#define READS_PER_READER 20000

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static volatile long first, second;

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < WRITES_PER_WRITER; i++) {
        pthread_rwlock_wrlock(&lock);
        first = first + 1;
        second = second + 1;
        pthread_rwlock_unlock(&lock);
    }
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    long torn = 0;
    for (int i = 0; i < READS_PER_READER; i++) {
        pthread_rwlock_rdlock(&lock);
        if (first != second)
            torn++;
        pthread_rwlock_unlock(&lock);
    }
    return (void *)(size_t)torn;
}

static void *try_both(void *arg)
{
    (void)arg;
    int rd = pthread_rwlock_tryrdlock(&lock);
    if (rd == 0)
        pthread_rwlock_unlock(&lock);
    int wr = pthread_rwlock_trywrlock(&lock);
    if (wr == 0)
        pthread_rwlock_unlock(&lock);
    return (void *)(size_t)((rd == 0 ? 0 : rd == EBUSY ? 1 : 9) * 10 + (wr == 0 ? 0 : wr == EBUSY ? 1 : 9));
}

static int try_from_other_thread(void)
{
    pthread_t t;
    void *ret;
    pthread_create(&t, NULL, try_both, NULL);
    pthread_join(t, &ret);
    return (int)(size_t)ret;
}

int main(void)
{
    pthread_t threads[WRITERS + READERS];
    for (int i = 0; i < WRITERS; i++)
        pthread_create(&threads[i], NULL, writer, NULL);
    for (int i = 0; i < READERS; i++)
        pthread_create(&threads[WRITERS + i], NULL, reader, NULL);
    long torn = 0;
    for (int i = 0; i < WRITERS + READERS; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        if (i >= WRITERS)
            torn += (long)(size_t)ret;
    }
    printf("final counters: %ld %ld (expected %d)\n", first, second, WRITERS * WRITES_PER_WRITER);
    printf("torn reads: %ld\n", torn);

    // Encoded as tryrdlock*10 + trywrlock, 0 = acquired, 1 = EBUSY.
    pthread_rwlock_rdlock(&lock);
    int while_read_locked = try_from_other_thread();
    pthread_rwlock_unlock(&lock);
    pthread_rwlock_wrlock(&lock);
    int while_write_locked = try_from_other_thread();
    pthread_rwlock_unlock(&lock);
    int while_unlocked = try_from_other_thread();
    printf("try from other thread: read-locked=%02d write-locked=%02d unlocked=%02d\n", while_read_locked,
           while_write_locked, while_unlocked);

    int ok = first == WRITERS * WRITES_PER_WRITER && second == first && torn == 0 && while_read_locked == 1 &&
             while_write_locked == 11 && while_unlocked == 0;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
