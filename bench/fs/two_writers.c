/* (c) 2 threads, each writing and reading back its own files at the same time: the
 * stdio_files pattern (1000 fwrites of (j % 1000) + 1 bytes per file, matching freads,
 * checked, unlinked), 50 files each. Reports the combined throughput. */
#include <stdint.h>

#include "bench_common.h"

#define FILES 50
#define CALLS 1000
#define THREADS 2

static long long mismatches[THREADS];
static long long bytes[THREADS];

static void *writer(void *arg)
{
    int t = (int)(intptr_t)arg;
    unsigned char template[CALLS], back[CALLS];
    for (int i = 0; i < CALLS; i++)
        template[i] = (unsigned char)(i * 7 + t * 13 + 1);
    for (int f = 0; f < FILES; f++) {
        char name[32];
        snprintf(name, sizeof name, "t%d-file-%d", t, f);
        FILE *out = fopen(name, "w");
        if (!out)
            die("fopen w");
        for (int j = 0; j < CALLS; j++) {
            size_t n = (size_t)(j % 1000) + 1;
            if (fwrite(template, 1, n, out) != n)
                die("fwrite");
            bytes[t] += (long long)n;
        }
        fclose(out);
        FILE *in = fopen(name, "r");
        for (int j = 0; j < CALLS; j++) {
            size_t n = (size_t)(j % 1000) + 1;
            if (fread(back, 1, n, in) != n)
                die("fread");
            mismatches[t] += memcmp(back, template, n) != 0;
        }
        fclose(in);
        unlink(name);
    }
    return NULL;
}

int main(void)
{
    enter_bench_dir("two-writers");
    pthread_t th[THREADS];
    double start = now_seconds();
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, writer, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    double seconds = now_seconds() - start;
    long long total = bytes[0] + bytes[1], bad = mismatches[0] + mismatches[1];
    printf("RESULT {\"bench\":\"two_writers\",\"where\":\"2 threads\",\"seconds\":%.6f,\"bytes\":%lld,"
           "\"mb_per_s\":%.2f,\"mismatches\":%lld}\n",
           seconds, total, 2.0 * (double)total / seconds / 1e6, bad);
    return bad != 0;
}
