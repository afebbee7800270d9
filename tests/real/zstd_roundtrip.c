// zstd with worker threads: compresses a file (or generated text) with N workers, writes the
// frame, decompresses it and compares the bytes. Everything printed except the RESULT line is
// deterministic (zstd's multithreaded output does not depend on timing), so a run is compared
// line by line with the native build's.
//
// usage: zstd_roundtrip INPUT|gen:BYTES OUTPUT WORKERS LEVEL
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zstd.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

// Compressible, deterministic text: words from a small vocabulary picked by an LCG.
static unsigned char *generate(size_t n)
{
    static const char *words[] = {"spindle ", "thread ",  "memory ", "worker ", "atomic ",  "shared ",
                                  "file ",    "zstd ",    "frame ",  "block ",  "literal ", "match ",
                                  "offset ",  "entropy ", "window ", "\n"};
    unsigned char *buf = malloc(n);
    if (!buf)
        return NULL;
    uint32_t state = 12345;
    size_t at = 0;
    while (at < n) {
        state = state * 1103515245u + 12345u;
        const char *w = words[(state >> 16) % 16];
        size_t len = strlen(w);
        if (len > n - at)
            len = n - at;
        memcpy(buf + at, w, len);
        at += len;
    }
    return buf;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? n : 1);
    if (!buf || fread(buf, 1, n, f) != (size_t)n) {
        fprintf(stderr, "%s: read failed\n", path);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s INPUT|gen:BYTES OUTPUT WORKERS LEVEL\n", argv[0]);
        return 2;
    }
    int workers = atoi(argv[3]), level = atoi(argv[4]);
    size_t size = 0;
    unsigned char *input;
    if (strncmp(argv[1], "gen:", 4) == 0) {
        size = strtoull(argv[1] + 4, NULL, 10);
        input = generate(size);
    } else {
        input = read_file(argv[1], &size);
    }
    if (!input)
        return 1;

    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    size_t rc = ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, workers);
    if (ZSTD_isError(rc)) {
        fprintf(stderr, "nbWorkers=%d: %s\n", workers, ZSTD_getErrorName(rc));
        return 1;
    }
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    size_t bound = ZSTD_compressBound(size);
    unsigned char *frame = malloc(bound);
    unsigned char *back = malloc(size ? size : 1);
    if (!frame || !back) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

    double t0 = now_ms();
    size_t csize = ZSTD_compress2(cctx, frame, bound, input, size);
    double t1 = now_ms();
    if (ZSTD_isError(csize)) {
        fprintf(stderr, "compress: %s\n", ZSTD_getErrorName(csize));
        return 1;
    }
    size_t dsize = ZSTD_decompress(back, size, frame, csize);
    double t2 = now_ms();
    if (ZSTD_isError(dsize)) {
        fprintf(stderr, "decompress: %s\n", ZSTD_getErrorName(dsize));
        return 1;
    }
    if (dsize != size || memcmp(back, input, size) != 0) {
        fprintf(stderr, "round trip differs\n");
        return 1;
    }

    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(frame, 1, csize, out) != csize || fclose(out) != 0) {
        perror(argv[2]);
        return 1;
    }
    printf("zstd %s workers %d level %d\n", ZSTD_versionString(), workers, level);
    printf("input %zu bytes fnv %016llx\n", size, (unsigned long long)fnv1a64(input, size));
    printf("frame %zu bytes fnv %016llx\n", csize, (unsigned long long)fnv1a64(frame, csize));
    printf("round trip ok\n");
    printf("RESULT {\"ms\": %.3f, \"compressMs\": %.3f, \"decompressMs\": %.3f, \"bytes\": %zu}\n", t2 - t0,
           t1 - t0, t2 - t1, size);
    ZSTD_freeCCtx(cctx);
    return 0;
}
