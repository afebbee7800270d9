/* Single-threaded checks of the allocation family's contract: errno values, overflow,
 * alignment rules, malloc(0), realloc corner cases, in-place resizing of large blocks and
 * statistics. Builds natively (prefixed names) and for wasm (standard names). */
#include "alloc_names.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <spindle/alloc.h>

#ifdef SPINDLE_ALLOC_PREFIXED
void *spindle_valloc(size_t n);
void *spindle_pvalloc(size_t n);
void *spindle_reallocarray(void *p, size_t count, size_t size);
#define T_VALLOC spindle_valloc
#define T_PVALLOC spindle_pvalloc
#define T_REALLOCARRAY spindle_reallocarray
#else
void *valloc(size_t n);
void *pvalloc(size_t n);
void *reallocarray(void *p, size_t count, size_t size);
#define T_VALLOC valloc
#define T_PVALLOC pvalloc
static void *(*volatile T_REALLOCARRAY)(void *, size_t, size_t) = reallocarray;
#endif

static int passed, failed;

static void check(const char *what, bool ok)
{
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    ok ? passed++ : failed++;
}

static bool aligned_to(const void *p, size_t a) { return p && ((uintptr_t)p & (a - 1)) == 0; }

/* Three adjacent large blocks freed in each of the six orders must merge into one run
 * that a block of their combined size gets, at the first one's address. A fourth block
 * after them keeps the run from merging into the never-used memory at the end. */
static void check_neighbours_merge(void)
{
    const size_t n = (size_t)8 << 20;
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int o = 0; o < 6; o++) {
        char *b[4];
        for (int i = 0; i < 4; i++)
            b[i] = T_MALLOC(n);
        size_t step = (size_t)(b[1] - b[0]);
        bool adjacent = b[0] && b[1] && b[2] && b[3] && b[1] > b[0] && b[2] - b[1] == (ptrdiff_t)step &&
                        b[3] - b[2] == (ptrdiff_t)step;
        for (int i = 0; i < 3; i++)
            T_FREE(b[orders[o][i]]);
        /* 3 steps less room for one span descriptor: exactly the three blocks' units */
        char *all = adjacent ? T_MALLOC(3 * step - 256) : NULL;
        char what[80];
        snprintf(what, sizeof what, "adjacent free blocks merge (free order %d%d%d)", orders[o][0],
                 orders[o][1], orders[o][2]);
        check(what, adjacent && all == b[0]);
        T_FREE(all);
        T_FREE(b[3]);
    }
}

/* Pages of many freed small blocks coalesce: a large block then fits where they were,
 * without taking more memory. */
static void check_big_after_small_frees(void)
{
    enum { COUNT = 24000 };
    static void *small[COUNT];
    char *high = NULL;
    for (int i = 0; i < COUNT; i++) {
        small[i] = T_MALLOC(1000);
        if ((char *)small[i] > high)
            high = small[i];
    }
    struct spindle_alloc_stats before, after;
    spindle_alloc_stats(&before);
    for (int i = 0; i < COUNT; i++)
        T_FREE(small[i]);
    char *big = T_MALLOC((size_t)16 << 20);
    spindle_alloc_stats(&after);
    check("16 MiB block fits where 24,000 freed small blocks were",
          big && big < high && after.reserved_bytes == before.reserved_bytes);
    T_FREE(big);
}

static void *malloc_and_exit(void *arg)
{
    T_FREE(T_MALLOC(100));
    return arg;
}

/* A thread that needs pages again and again takes them from its own spares, not through the
 * pool's lock, even while an exited thread's heap waits to be adopted: threads that come and
 * go leave such heaps for good, and a check of them on every slow path once put the one
 * global lock on every thread's page turnover. 40 blocks of 4000 B take 5 pages a round, of
 * which the heap keeps 4 as spares. */
static void check_turnover_beside_abandoned_heap(void)
{
    void *own = T_MALLOC(16); /* this thread's heap first, so it does not adopt the other's */
    pthread_t t;
    if (pthread_create(&t, NULL, malloc_and_exit, NULL) != 0 || pthread_join(t, NULL) != 0) {
        check("a thread to abandon a heap", false);
        return;
    }
    enum { ROUNDS = 1000, BLOCKS = 40 };
    void *b[BLOCKS];
    struct spindle_alloc_stats s0, s1;
    spindle_alloc_stats(&s0);
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < BLOCKS; i++)
            b[i] = T_MALLOC(4000);
        for (int i = 0; i < BLOCKS; i++)
            T_FREE(b[i]);
    }
    spindle_alloc_stats(&s1);
    T_FREE(own);
    check("an abandoned heap is there", s1.abandoned_heaps >= 1);
    check("page turnover beside an abandoned heap takes the pool lock rarely",
          s1.pool_locks - s0.pool_locks < ROUNDS / 10);
}

int main(void)
{
    check_turnover_beside_abandoned_heap(); /* first: its heap holds no spare pages of other sizes yet */
    errno = 0;
    check("malloc(SIZE_MAX) is NULL with ENOMEM", !T_MALLOC(SIZE_MAX) && errno == ENOMEM);
    errno = 0;
    check("malloc(SIZE_MAX/2) is NULL with ENOMEM", !T_MALLOC(SIZE_MAX / 2) && errno == ENOMEM);
    errno = 0;
    check("calloc overflow is NULL with ENOMEM", !T_CALLOC(SIZE_MAX / 2, 3) && errno == ENOMEM);
    errno = 0;
    check("reallocarray overflow is NULL with ENOMEM",
          !T_REALLOCARRAY(NULL, SIZE_MAX / 2, 3) && errno == ENOMEM);

    void *a = T_MALLOC(0), *b = T_MALLOC(0);
    check("malloc(0) gives distinct non-NULL pointers", a && b && a != b);
    T_FREE(a);
    T_FREE(b);
    T_FREE(NULL);
    check("free(NULL) is harmless", true);

    void *p = NULL;
    check("posix_memalign rejects alignment 24", T_POSIX_MEMALIGN(&p, 24, 10) == EINVAL && !p);
    check("posix_memalign rejects alignment 2", T_POSIX_MEMALIGN(&p, 2, 10) == EINVAL);
    errno = 0;
    check("aligned_alloc rejects alignment 3", !T_ALIGNED_ALLOC(3, 10) && errno == EINVAL);
    check("posix_memalign huge is ENOMEM", T_POSIX_MEMALIGN(&p, 64, SIZE_MAX - 100) == ENOMEM);
    size_t quarter = (size_t)1 << (sizeof(size_t) * 8 - 2);
    errno = 0;
    void *h = T_ALIGNED_ALLOC(quarter, quarter);
    check("huge aligned request: NULL with ENOMEM or an aligned block",
          h ? aligned_to(h, quarter) : errno == ENOMEM);
    T_FREE(h);
    errno = 0;
    h = T_ALIGNED_ALLOC(quarter, SIZE_MAX / 2);
    check("aligned request past the address space is NULL with ENOMEM", !h && errno == ENOMEM);

    bool ok = true;
    for (size_t al = 1; al <= ((size_t)1 << 20); al <<= 1) {
        for (size_t n = 0; n < 200000; n = n * 3 + 1) {
            void *q = T_ALIGNED_ALLOC(al, n);
            void *r = NULL;
            int e = T_POSIX_MEMALIGN(&r, al < sizeof(void *) ? sizeof(void *) : al, n);
            void *m = T_MEMALIGN(al, n);
            ok = ok && aligned_to(q, al) && !e && aligned_to(r, al) && aligned_to(m, al) &&
                 T_USABLE(q) >= n && T_USABLE(r) >= n && T_USABLE(m) >= n;
            T_FREE(q);
            T_FREE(r);
            T_FREE(m);
        }
    }
    check("aligned_alloc/posix_memalign/memalign honour 1 B..1 MiB alignments", ok);
    void *m3 = T_MEMALIGN(48, 100);
    check("memalign rounds alignment 48 up to 64", aligned_to(m3, 64));
    T_FREE(m3);

    void *v = T_VALLOC(100), *pv = T_PVALLOC(1);
#if defined(__wasm__)
    size_t page = 65536;
#else
    size_t page = 4096;
#endif
    check("valloc/pvalloc are page aligned",
          aligned_to(v, page) && aligned_to(pv, page) && T_USABLE(pv) >= page);
    T_FREE(v);
    T_FREE(pv);

    /* waste bound: small blocks within 12.5% (+16 B granularity) of the request */
    ok = true;
    for (size_t n = 1; n <= 65536; n++) {
        void *q = T_MALLOC(n);
        size_t u = T_USABLE(q);
        ok = ok && q && u >= n && (u - n) * 8 <= n + 128;
        T_FREE(q);
    }
    check("small usable sizes within 12.5% of the request", ok);

    char *r = T_REALLOC(NULL, 100);
    check("realloc(NULL, n) allocates", r != NULL);
    memset(r, 7, 100);
    char *r2 = T_REALLOC(r, 90);
    check("realloc shrinking a little stays in place", r2 == r);
    r = T_REALLOC(r2, 100000);
    ok = r != NULL;
    for (int i = 0; ok && i < 90; i++)
        ok = r[i] == 7;
    check("realloc into a large block keeps the prefix", ok);
    memset(r, 9, 100000);
    char *before = r;
    char *grown = T_REALLOC(r, 2000000);
    ok = grown != NULL;
    for (int i = 0; ok && i < 100000; i++)
        ok = grown[i] == 9;
    check("large realloc growth keeps the contents", ok);
    char *shrunk = T_REALLOC(grown, 300000);
    check("large realloc shrink stays in place", shrunk == grown);
    (void)before;
    errno = 0;
    check("realloc to SIZE_MAX fails with ENOMEM and keeps the block",
          !T_REALLOC(shrunk, SIZE_MAX) && errno == ENOMEM && shrunk[5] == 9);
    check("realloc(p, 0) frees and returns NULL", T_REALLOC(shrunk, 0) == NULL);

    unsigned char *z = T_MALLOC(5000);
    memset(z, 0xAB, 5000);
    T_FREE(z);
    z = T_CALLOC(1, 5000);
    ok = z != NULL;
    for (int i = 0; ok && i < 5000; i++)
        ok = z[i] == 0;
    check("calloc zeroes reused memory", ok);
    T_FREE(z);

    struct spindle_alloc_stats s0, s1, s2;
    spindle_alloc_stats(&s0);
    void *blocks[100];
    for (int i = 0; i < 100; i++)
        blocks[i] = T_MALLOC(1000);
    void *big = T_MALLOC(1 << 20);
    spindle_alloc_stats(&s1);
    for (int i = 0; i < 100; i++)
        T_FREE(blocks[i]);
    T_FREE(big);
    spindle_alloc_stats(&s2);
    check("stats count in-use bytes",
          s1.in_use_bytes - s0.in_use_bytes >= 100 * 1000 + (1 << 20) &&
              s1.in_use_bytes - s0.in_use_bytes <= 100 * 1024 + (1 << 20) + 16384);
    check("stats in-use bytes drop back after free", s2.in_use_bytes == s0.in_use_bytes);
    check("stats peak and reserved cover the use",
          s1.peak_page_bytes >= s1.page_bytes && s1.reserved_bytes >= s1.page_bytes &&
              s1.page_bytes >= s1.in_use_bytes && s1.peak_in_use_bytes >= s1.in_use_bytes);

    check_neighbours_merge();
    check_big_after_small_frees();

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
