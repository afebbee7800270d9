// Producer/consumer over a bounded queue guarded by one mutex and two
// condition variables. Every item must be consumed exactly once: the count,
// the sum and an order-independent checksum of the items prove it.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define PRODUCERS 3
#define CONSUMERS 2
#define ITEMS_PER_PRODUCER 5000
#define CAPACITY 16
#define STOP UINT32_MAX

static uint32_t queue[CAPACITY];
static int head, count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;

struct tally {
    uint64_t items;
    uint64_t sum;
    uint64_t mix; // sum of a hash of each item: detects swapped or duplicated items
};

static uint64_t hash_item(uint32_t item)
{
    uint64_t x = item * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
}

static void put(uint32_t item)
{
    pthread_mutex_lock(&lock);
    while (count == CAPACITY)
        pthread_cond_wait(&not_full, &lock);
    queue[(head + count) % CAPACITY] = item;
    count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
}

static uint32_t take(void)
{
    pthread_mutex_lock(&lock);
    while (count == 0)
        pthread_cond_wait(&not_empty, &lock);
    uint32_t item = queue[head];
    head = (head + 1) % CAPACITY;
    count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&lock);
    return item;
}

static void *producer(void *arg)
{
    uint32_t base = (uint32_t)(size_t)arg * ITEMS_PER_PRODUCER;
    for (uint32_t i = 0; i < ITEMS_PER_PRODUCER; i++)
        put(base + i);
    return NULL;
}

static void *consumer(void *arg)
{
    struct tally *tally = arg;
    for (;;) {
        uint32_t item = take();
        if (item == STOP)
            return NULL;
        tally->items++;
        tally->sum += item;
        tally->mix += hash_item(item);
    }
}

int main(void)
{
    pthread_t producers[PRODUCERS], consumers[CONSUMERS];
    struct tally tallies[CONSUMERS] = {{0, 0, 0}};
    for (int i = 0; i < CONSUMERS; i++)
        pthread_create(&consumers[i], NULL, consumer, &tallies[i]);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_create(&producers[i], NULL, producer, (void *)(size_t)i);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(producers[i], NULL);
    for (int i = 0; i < CONSUMERS; i++)
        put(STOP);
    for (int i = 0; i < CONSUMERS; i++)
        pthread_join(consumers[i], NULL);

    struct tally total = {0, 0, 0}, expected = {0, 0, 0};
    for (int i = 0; i < CONSUMERS; i++) {
        total.items += tallies[i].items;
        total.sum += tallies[i].sum;
        total.mix += tallies[i].mix;
    }
    for (uint32_t item = 0; item < PRODUCERS * ITEMS_PER_PRODUCER; item++) {
        expected.items++;
        expected.sum += item;
        expected.mix += hash_item(item);
    }
    printf("consumed %llu items, sum %llu, checksum %016llx\n", (unsigned long long)total.items,
           (unsigned long long)total.sum, (unsigned long long)total.mix);
    int ok = total.items == expected.items && total.sum == expected.sum && total.mix == expected.mix;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
