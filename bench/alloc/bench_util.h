/* Shared helpers of the allocator benchmarks: clock, peak memory, result line. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../memory_grows.h"
#if !defined(__wasm__)
#include <sys/resource.h>
#endif

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* wasm: linear memory size (it never shrinks, so it is the peak);
 * natively: peak resident set size. */
static long long peak_memory_bytes(void)
{
#if defined(__wasm__)
    return (long long)__builtin_wasm_memory_size(0) * 65536;
#else
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (long long)ru.ru_maxrss * 1024;
#endif
}

static long arg_long(int argc, char **argv, int i, long dflt) { return argc > i ? atol(argv[i]) : dflt; }

/* One machine-readable line; `extra` is more JSON members (may be empty). */
static void print_result(const char *workload, int threads, double ms, long long ops, const char *extra)
{
    printf("RESULT {\"workload\":\"%s\",\"threads\":%d,\"ms\":%.1f,\"ops\":%lld,"
           "\"mops_per_s\":%.2f,\"peak_memory\":%lld,\"memory_grows\":%lld%s%s}\n",
           workload, threads, ms, ops, ms > 0 ? ops / ms / 1e3 : 0.0, peak_memory_bytes(), memory_grows(),
           extra && *extra ? "," : "", extra ? extra : "");
    fflush(stdout);
}

#endif
