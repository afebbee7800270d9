/* (a) 100 files, each written with 1000 fwrite calls of (j % 1000) + 1 bytes, read back
 * with matching freads and checked, then unlinked. argv[1]: "main" or "thread". */
#include "bench_common.h"

#define FILES 100
#define CALLS 1000

struct result {
    double seconds;
    long long bytes;
    long long mismatches;
};

/* Each file's bytes come from a 1000-byte template (call j writes its first (j % 1000) + 1
 * bytes), so making and checking the data costs a memcpy/memcmp, and the time is the I/O. */
static void make_template(unsigned char *t, int file)
{
    for (int i = 0; i < CALLS; i++)
        t[i] = (unsigned char)(i * 7 + file * 13 + 1);
}

static void body(void *p)
{
    struct result *r = p;
    static unsigned char template[CALLS], back[CALLS];
    double start = now_seconds();
    for (int f = 0; f < FILES; f++) {
        char name[32];
        snprintf(name, sizeof name, "file-%d", f);
        make_template(template, f);
        FILE *out = fopen(name, "w");
        if (!out)
            die("fopen w");
        long long total = 0;
        for (int j = 0; j < CALLS; j++) {
            size_t n = (size_t)(j % 1000) + 1;
            if (fwrite(template, 1, n, out) != n)
                die("fwrite");
            total += (long long)n;
        }
        if (fclose(out) != 0)
            die("fclose w");
        FILE *in = fopen(name, "r");
        if (!in)
            die("fopen r");
        for (int j = 0; j < CALLS; j++) {
            size_t n = (size_t)(j % 1000) + 1;
            if (fread(back, 1, n, in) != n)
                die("fread");
            r->mismatches += memcmp(back, template, n) != 0;
        }
        if (fgetc(in) != EOF) /* nothing more than was written */
            r->mismatches++;
        fclose(in);
        if (unlink(name) != 0)
            die("unlink");
        r->bytes += total;
    }
    r->seconds = now_seconds() - start;
}

int main(int argc, char **argv)
{
    enter_bench_dir("stdio");
    struct result r = {0, 0, 0};
    const char *where = run_where(argc, argv, body, &r);
    printf("RESULT {\"bench\":\"stdio_files\",\"where\":\"%s\",\"seconds\":%.6f,\"bytes\":%lld,"
           "\"mb_per_s\":%.2f,\"mismatches\":%lld,\"memory_grows\":%lld}\n",
           where, r.seconds, r.bytes, 2.0 * (double)r.bytes / r.seconds / 1e6, r.mismatches, memory_grows());
    return r.mismatches != 0;
}
