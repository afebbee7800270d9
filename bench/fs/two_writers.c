/* (c) Threads writing and reading back their own files at the same time: the stdio_files
 * pattern (1000 fwrites of (j % 1000) + 1 bytes per file, matching freads, checked,
 * unlinked), 100 files split over argv[1] threads (default 2), so 1 thread against 2 threads
 * is the speed-up of "2 threads on 2 different files". Reports the combined throughput. */
#include <stdint.h>

#include "bench_common.h"

#define TOTAL_FILES 100
#define CALLS 1000
#define MAX_THREADS 16

static int threads;
static struct thread_totals totals[MAX_THREADS]; /* count: bytes written */

static void *writer(void *arg)
{
    int t = (int)(intptr_t)arg;
    unsigned char template[CALLS], back[CALLS];
    long long bytes = 0, mismatches = 0;
    for (int i = 0; i < CALLS; i++)
        template[i] = (unsigned char)(i * 7 + t * 13 + 1);
    for (int f = t; f < TOTAL_FILES; f += threads) {
        char name[32];
        snprintf(name, sizeof name, "t%d-file-%d", t, f);
        FILE *out = fopen(name, "w");
        if (!out)
            die("fopen w");
        for (int j = 0; j < CALLS; j++) {
            size_t n = (size_t)(j % 1000) + 1;
            if (fwrite(template, 1, n, out) != n)
                die("fwrite");
            bytes += (long long)n;
        }
        fclose(out);
        FILE *in = fopen(name, "r");
        for (int j = 0; j < CALLS; j++) {
            size_t n = (size_t)(j % 1000) + 1;
            if (fread(back, 1, n, in) != n)
                die("fread");
            mismatches += memcmp(back, template, n) != 0;
        }
        fclose(in);
        unlink(name);
    }
    totals[t].count = bytes;
    totals[t].mismatches = mismatches;
    return NULL;
}

int main(int argc, char **argv)
{
    threads = argc > 1 ? atoi(argv[1]) : 2;
    if (threads < 1 || threads > MAX_THREADS)
        die("usage: two_writers [threads 1..16]");
    enter_bench_dir("two-writers");
    pthread_t th[MAX_THREADS];
    double start = now_seconds();
    for (int t = 0; t < threads; t++)
        pthread_create(&th[t], NULL, writer, (void *)(intptr_t)t);
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    double seconds = now_seconds() - start;
    long long total = 0, bad = 0;
    for (int t = 0; t < threads; t++) {
        total += totals[t].count;
        bad += totals[t].mismatches;
    }
    printf("RESULT {\"bench\":\"two_writers\",\"threads\":%d,\"seconds\":%.6f,\"bytes\":%lld,"
           "\"mb_per_s\":%.2f,\"mismatches\":%lld,\"memory_grows\":%lld}\n",
           threads, seconds, total, 2.0 * (double)total / seconds / 1e6, bad, memory_grows());
    return bad != 0;
}
