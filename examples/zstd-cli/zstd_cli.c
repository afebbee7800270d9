// A small zstd command line: streams a file through zstd's compressor with N worker threads, or
// through the decompressor, in 1 MiB pieces (files of any size, little memory).
//
// usage: zstd_cli compress IN OUT [THREADS [LEVEL]]
//        zstd_cli decompress IN OUT
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

static int fail(const char *what, size_t code)
{
    fprintf(stderr, "%s: %s\n", what, ZSTD_getErrorName(code));
    return 1;
}

static int write_all(FILE *out, const void *buf, size_t n, const char *path)
{
    if (n && fwrite(buf, 1, n, out) != n) {
        perror(path);
        return 1;
    }
    return 0;
}

static int compress(FILE *in, FILE *out, const char *out_path, int threads, int level)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    size_t rc = ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, threads);
    if (ZSTD_isError(rc))
        return fail("worker threads", rc); // a build without ZSTD_MULTITHREAD says so here
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    size_t in_size = ZSTD_CStreamInSize(), out_size = ZSTD_CStreamOutSize();
    char *ibuf = malloc(in_size), *obuf = malloc(out_size);
    for (;;) {
        size_t got = fread(ibuf, 1, in_size, in);
        int last = got < in_size;
        ZSTD_inBuffer input = {ibuf, got, 0};
        int finished;
        do { // feed this piece; at the end, flush until the frame is complete
            ZSTD_outBuffer output = {obuf, out_size, 0};
            size_t left = ZSTD_compressStream2(cctx, &output, &input, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left))
                return fail("compress", left);
            if (write_all(out, obuf, output.pos, out_path))
                return 1;
            finished = last ? left == 0 : input.pos == input.size;
        } while (!finished);
        if (last)
            break;
    }
    ZSTD_freeCCtx(cctx);
    free(ibuf);
    free(obuf);
    return ferror(in) ? (perror("read"), 1) : 0;
}

static int decompress(FILE *in, FILE *out, const char *out_path)
{
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    size_t in_size = ZSTD_DStreamInSize(), out_size = ZSTD_DStreamOutSize();
    char *ibuf = malloc(in_size), *obuf = malloc(out_size);
    size_t got, left = 0;
    while ((got = fread(ibuf, 1, in_size, in)) > 0) {
        ZSTD_inBuffer input = {ibuf, got, 0};
        while (input.pos < input.size) {
            ZSTD_outBuffer output = {obuf, out_size, 0};
            left = ZSTD_decompressStream(dctx, &output, &input);
            if (ZSTD_isError(left))
                return fail("decompress", left);
            if (write_all(out, obuf, output.pos, out_path))
                return 1;
        }
    }
    ZSTD_freeDCtx(dctx);
    free(ibuf);
    free(obuf);
    if (left != 0) {
        fprintf(stderr, "decompress: the input ends inside a frame\n");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int is_compress = argc >= 4 && strcmp(argv[1], "compress") == 0 && argc <= 6;
    int is_decompress = argc == 4 && strcmp(argv[1], "decompress") == 0;
    if (!is_compress && !is_decompress) {
        fprintf(stderr, "usage: %s compress IN OUT [THREADS [LEVEL]]\n       %s decompress IN OUT\n", argv[0],
                argv[0]);
        return 2;
    }
    int threads = argc >= 5 ? atoi(argv[4]) : 4, level = argc >= 6 ? atoi(argv[5]) : 3;
    FILE *in = fopen(argv[2], "rb");
    if (!in) {
        perror(argv[2]);
        return 1;
    }
    FILE *out = fopen(argv[3], "wb");
    if (!out) {
        perror(argv[3]);
        return 1;
    }
    double t0 = now_ms();
    int rc = is_compress ? compress(in, out, argv[3], threads, level) : decompress(in, out, argv[3]);
    fclose(in);
    if (fclose(out) != 0) {
        perror(argv[3]);
        rc = 1;
    }
    if (rc == 0)
        fprintf(stderr, "%s %s -> %s in %.0f ms\n", argv[1], argv[2], argv[3], now_ms() - t0);
    return rc;
}
