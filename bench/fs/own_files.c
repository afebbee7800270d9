/* Threads working on their own files in one shared directory: argv[2] files (default 200) of
 * 64 KiB split over argv[1] threads (1..256). Each file is created, written in 1 KiB write()
 * calls, closed, reopened, read back in 1 KiB read() calls and checked, closed and unlinked. The threads share
 * only the directory, so the time should fall as threads are added (the speed-up of independent
 * work). Timed from the moment all threads run, and also from before the first pthread_create
 * (with_thread_start_s: what a program that starts its threads for the work waits). Reports the
 * files per second.
 * `own_files alternate ROUNDS [FILES]` instead times passes of FILES files (default 200) on 1
 * and on 2 threads in turn, ROUNDS times each, inside one process, so that both see the same
 * machine load; it reports the median pass of each and their ratio (docs/FILESYSTEM.md). */
#include <stdint.h>

#include "bench_common.h"

#define TOTAL_FILES 200
#define FILE_BYTES (64 << 10)
#define CALL_BYTES 1024
#define MAX_THREADS 256
#define MAX_ROUNDS 1000

static int threads;
static int pass_files = TOTAL_FILES;
static struct thread_totals results[MAX_THREADS];

/* One file's life; returns the number of blocks read back wrong. */
static long long one_file(int f)
{
    unsigned char pattern[CALL_BYTES], back[CALL_BYTES];
    long long mismatches = 0;
    char name[32];
    snprintf(name, sizeof name, "own-%d", f);
    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        die("create own file");
    for (int i = 0; i < FILE_BYTES / CALL_BYTES; i++) {
        memset(pattern, (int)((f + i) & 0xff), CALL_BYTES);
        if (write(fd, pattern, CALL_BYTES) != CALL_BYTES)
            die("write own file");
    }
    close(fd);
    fd = open(name, O_RDONLY);
    if (fd < 0)
        die("reopen own file");
    for (int i = 0; i < FILE_BYTES / CALL_BYTES; i++) {
        if (read(fd, back, CALL_BYTES) != CALL_BYTES)
            die("read own file");
        mismatches += back[0] != (unsigned char)(f + i) || back[CALL_BYTES - 1] != (unsigned char)(f + i);
    }
    close(fd);
    if (unlink(name) != 0)
        die("unlink own file");
    return mismatches;
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    long long mismatches = 0;
    for (int f = t; f < pass_files; f += threads)
        mismatches += one_file(f);
    results[t].mismatches = mismatches;
    return NULL;
}

static long long pass_mismatches(void)
{
    long long bad = 0;
    for (int t = 0; t < threads; t++)
        bad += results[t].mismatches;
    return bad;
}

static int compare_seconds(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int alternate(int rounds, int files)
{
    static double one[MAX_ROUNDS], two[MAX_ROUNDS];
    if (rounds < 1 || rounds > MAX_ROUNDS || files < 1) {
        fprintf(stderr, "usage: own_files alternate ROUNDS(1..%d) [FILES]\n", MAX_ROUNDS);
        return 2;
    }
    pass_files = files;
    enter_bench_dir("own-files");
    long long bad = one_file(files); /* untimed, as in main */
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < 2; k++) { /* which goes first changes each round */
            threads = (r + k) % 2 + 1;
            double seconds = run_timed_threads(threads, worker);
            (threads == 1 ? one : two)[r] = seconds;
            bad += pass_mismatches();
        }
    qsort(one, (size_t)rounds, sizeof one[0], compare_seconds);
    qsort(two, (size_t)rounds, sizeof two[0], compare_seconds);
    double one_s = one[rounds / 2], two_s = two[rounds / 2];
    printf("RESULT {\"bench\":\"own_files_alternate\",\"rounds\":%d,\"files\":%d,\"one_thread_seconds\":%.6f,"
           "\"two_threads_seconds\":%.6f,\"speedup\":%.2f,\"mismatches\":%lld}\n",
           rounds, files, one_s, two_s, one_s / two_s, bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "alternate") == 0)
        return alternate(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : TOTAL_FILES);
    threads = argc > 1 ? atoi(argv[1]) : 2;
    pass_files = argc > 2 ? atoi(argv[2]) : TOTAL_FILES;
    if (threads < 1 || threads > MAX_THREADS || pass_files < 1 || pass_files > 1000000) {
        fprintf(stderr, "usage: own_files [threads 1..%d [files 1..1000000]]\n", MAX_THREADS);
        return 2;
    }
    enter_bench_dir("own-files");
    /* One file first, untimed: in wasm, the first calls of each function are V8 compiling it. */
    long long bad = one_file(TOTAL_FILES);
    double seconds = run_timed_threads(threads, worker);
    bad += pass_mismatches();
    printf(
        "RESULT "
        "{\"bench\":\"own_files\",\"threads\":%d,\"seconds\":%.6f,\"with_thread_start_s\":%.6f,\"files\":%d,"
        "\"files_per_s\":%.0f,\"mismatches\":%lld,\"memory_grows\":%lld}\n",
        threads, seconds, timed_threads.with_thread_start, pass_files, pass_files / seconds, bad,
        memory_grows());
    return bad != 0;
}
