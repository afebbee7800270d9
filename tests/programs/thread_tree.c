// Threads that create threads that create threads: a tree of depth 3 with
// fan-out 3 below the first spawned thread. Each node returns the sum of the
// labels in its subtree, so a lost or duplicated node changes the total.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define FANOUT 3
#define DEPTH 3

static atomic_int nodes_started;
static atomic_int creation_failures;

static void *grow(void *arg)
{
    long label = (long)(size_t)arg;
    int depth = 0;
    for (long l = label; l > 0; l = (l - 1) / FANOUT)
        depth++;
    atomic_fetch_add(&nodes_started, 1);
    long sum = label;
    if (depth < DEPTH) {
        pthread_t children[FANOUT];
        int created[FANOUT];
        for (int i = 0; i < FANOUT; i++) {
            long child = label * FANOUT + 1 + i;
            created[i] = pthread_create(&children[i], NULL, grow, (void *)(size_t)child) == 0;
            if (!created[i])
                atomic_fetch_add(&creation_failures, 1);
        }
        for (int i = 0; i < FANOUT; i++) {
            void *ret;
            if (created[i] && pthread_join(children[i], &ret) == 0)
                sum += (long)(size_t)ret;
        }
    }
    return (void *)(size_t)sum;
}

int main(void)
{
    // Label 0 is the root thread; children of node n are 3n+1..3n+3 (heap order).
    pthread_t root;
    void *ret;
    pthread_create(&root, NULL, grow, (void *)(size_t)0);
    pthread_join(root, &ret);
    int expected_nodes = 1 + 3 + 9 + 27;
    long expected_sum = (long)(expected_nodes - 1) * expected_nodes / 2;
    printf("nodes started: %d (expected %d)\n", atomic_load(&nodes_started), expected_nodes);
    printf("label sum: %ld (expected %ld)\n", (long)(size_t)ret, expected_sum);
    printf("creation failures: %d\n", atomic_load(&creation_failures));
    int ok = atomic_load(&nodes_started) == expected_nodes && (long)(size_t)ret == expected_sum &&
             atomic_load(&creation_failures) == 0;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
