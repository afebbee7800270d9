/* Threads looking up their own files by name: 400,000 lookups (stat, or open and close,
 * alternately) of relative names in the working directory, split over argv[1] threads (1..256),
 * each on 16 files of its own. Nothing is written, so nothing but the lookup's own bookkeeping
 * (libc's preopen table and working directory, the directory walk) is shared: this is the
 * speed-up of path calls, which build tools and servers make by the million. Timed from the
 * moment all threads run. Reports lookups per second. */
#include <stdint.h>

#include "bench_common.h"

#define TOTAL_LOOKUPS 400000
#define FILES_PER_THREAD 16
#define MAX_THREADS 256

static int threads;
static long long failures;

static void name_of(char *name, size_t size, int thread, int file)
{
    snprintf(name, size, "lookup-%d-%d", thread, file);
}

static void *look_up(void *arg)
{
    int t = (int)(intptr_t)arg;
    char names[FILES_PER_THREAD][32];
    for (int f = 0; f < FILES_PER_THREAD; f++)
        name_of(names[f], sizeof names[f], t, f);
    long long failed = 0;
    struct stat st;
    for (int i = t, k = 0; i < TOTAL_LOOKUPS; i += threads, k++) {
        const char *name = names[k % FILES_PER_THREAD];
        if (k & 1) {
            int fd = open(name, O_RDONLY);
            failed += fd < 0 || close(fd) != 0;
        } else {
            failed += stat(name, &st) != 0 || st.st_size != t % 17;
        }
    }
    __atomic_fetch_add(&failures, failed, __ATOMIC_RELAXED);
    return NULL;
}

int main(int argc, char **argv)
{
    threads = argc > 1 ? atoi(argv[1]) : 2;
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "usage: path_lookups [threads 1..%d]\n", MAX_THREADS);
        return 2;
    }
    enter_bench_dir("path-lookups");
    char name[32];
    for (int t = 0; t < threads; t++)
        for (int f = 0; f < FILES_PER_THREAD; f++) {
            name_of(name, sizeof name, t, f);
            int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            /* thread t's files are t % 17 bytes long: most lookups that found another's file fail */
            if (fd < 0 || write(fd, "................", (size_t)t % 17) != t % 17 || close(fd) != 0)
                die("create lookup file");
        }
    /* Some lookups first, untimed: in wasm, the first calls of each function are V8 compiling it. */
    struct stat st;
    for (int i = 0; i < 1000; i++)
        if (stat("lookup-0-0", &st) != 0)
            die("warm-up stat");
    double seconds = run_timed_threads(threads, look_up);
    for (int t = 0; t < threads; t++)
        for (int f = 0; f < FILES_PER_THREAD; f++) {
            name_of(name, sizeof name, t, f);
            unlink(name);
        }
    printf("RESULT {\"bench\":\"path_lookups\",\"threads\":%d,\"seconds\":%.6f,\"lookups\":%d,"
           "\"lookups_per_s\":%.0f,\"failures\":%lld,\"memory_grows\":%lld}\n",
           threads, seconds, TOTAL_LOOKUPS, TOTAL_LOOKUPS / seconds, failures, memory_grows());
    return failures != 0;
}
