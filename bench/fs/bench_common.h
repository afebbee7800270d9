/* Shared helpers of the filesystem benchmarks: a monotonic clock, a scratch directory, running
 * the measured body on the C main thread or on one pthread (argv[1] = "main" | "thread"), and
 * the single `RESULT {json}` line each benchmark prints. */
#ifndef SPINDLE_BENCH_FS_COMMON_H
#define SPINDLE_BENCH_FS_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../memory_grows.h"

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void die(const char *what)
{
    fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
    exit(1);
}

static char bench_dir[512];

/* Removes the (by then empty) bench directory at exit. */
static void leave_bench_dir(void)
{
    if (chdir("/") == 0)
        rmdir(bench_dir);
}

/* A fresh directory under $TMPDIR (or /tmp) for this run, made the cwd; removed at exit. */
static inline void enter_bench_dir(const char *bench)
{
    const char *base = getenv("TMPDIR");
    if (base == NULL || *base == '\0')
        base = "/tmp";
    char *path = bench_dir;
    const size_t size = sizeof bench_dir;
    for (int i = 0;; i++) {
        snprintf(path, size, "%s/spindle-bench-%s-%d", base, bench, i);
        if (mkdir(path, 0755) == 0)
            break;
        if (errno != EEXIST || i > 10000)
            die("mkdir bench dir");
    }
    if (chdir(path) != 0)
        die("chdir bench dir");
    atexit(leave_bench_dir);
}

/* One thread's totals, on a cache line of their own: each thread adds up in locals and stores
 * here once at its end, so the benchmark itself puts no two threads' hot data on one line. */
struct thread_totals {
    long long count;
    long long mismatches;
} __attribute__((aligned(64)));

struct body_call {
    void (*body)(void *);
    void *arg;
};

static void *run_body(void *p)
{
    struct body_call *c = p;
    c->body(c->arg);
    return NULL;
}

/* Creates `name` of `bytes` bytes in blocks of `block` bytes, block i filled with the byte i & 0xff
 * (readers check what they read against it). Returns the file open read-write. */
static inline int write_numbered_blocks(const char *name, long long bytes, size_t block)
{
    unsigned char *buf = malloc(block);
    int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (buf == NULL || fd < 0)
        die("create numbered blocks");
    for (long long i = 0; i < bytes / (long long)block; i++) {
        memset(buf, (int)(i & 0xff), block);
        if (write(fd, buf, block) != (ssize_t)block)
            die("write numbered blocks");
    }
    free(buf);
    return fd;
}

#define TIMED_MAX_THREADS 256

/* The threads of run_timed_threads: each waits at the barrier, notes when it left it, then
 * works. */
struct timed_threads {
    pthread_barrier_t start;
    void *(*work)(void *);
    double started[TIMED_MAX_THREADS];
    /* the last run's seconds from before its first pthread_create to the last thread's end:
     * what a program that starts threads for its work waits, thread starts included */
    double with_thread_start;
};
static struct timed_threads timed_threads;

static inline void *timed_thread(void *arg)
{
    pthread_barrier_wait(&timed_threads.start);
    timed_threads.started[(intptr_t)arg] = now_seconds();
    return timed_threads.work(arg);
}

/* Runs work((void *)t) on `threads` pthreads (t = 0..threads-1) and returns the seconds from
 * the moment all of them are running to the last one's end: starting a thread (in Node, a
 * worker past the host's pool) is not part of the work measured (timed_threads.with_thread_start
 * has the time with it). The start is the first that
 * any thread, main included, left the barrier: on busy cores main can wake after the workers
 * have done much of the work, and its own clock alone would leave that out. */
static inline double run_timed_threads(int threads, void *(*work)(void *))
{
    if (threads < 1 || threads > TIMED_MAX_THREADS)
        die("run_timed_threads: thread count");
    pthread_t th[threads];
    timed_threads.work = work;
    double before_create = now_seconds();
    if (pthread_barrier_init(&timed_threads.start, NULL, (unsigned)threads + 1) != 0)
        die("pthread_barrier_init");
    for (int t = 0; t < threads; t++)
        if (pthread_create(&th[t], NULL, timed_thread, (void *)(intptr_t)t) != 0)
            die("pthread_create");
    pthread_barrier_wait(&timed_threads.start);
    double start = now_seconds();
    for (int t = 0; t < threads; t++) {
        pthread_join(th[t], NULL);
        if (timed_threads.started[t] < start)
            start = timed_threads.started[t];
    }
    double end = now_seconds();
    double seconds = end - start;
    timed_threads.with_thread_start = end - before_create;
    pthread_barrier_destroy(&timed_threads.start);
    return seconds;
}

/* Runs body(arg) where argv[1] says: "main" (default) or "thread" (one pthread, main joins). */
static inline const char *run_where(int argc, char **argv, void (*body)(void *), void *arg)
{
    const char *where = argc > 1 ? argv[1] : "main";
    if (strcmp(where, "thread") == 0) {
        struct body_call c = {body, arg};
        pthread_t t;
        if (pthread_create(&t, NULL, run_body, &c) != 0)
            die("pthread_create");
        pthread_join(t, NULL);
    } else {
        where = "main";
        body(arg);
    }
    return where;
}

#endif
