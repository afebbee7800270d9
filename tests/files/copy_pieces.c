/* spindle_fs_copy_pieces (runtime/fs/ops/host_copy.c), natively under ASan+UBSan: pieces cover the
 * range in order and never cross a chunk, holes come as NULL pieces, a small first chunk is not
 * overrun, writes grow the file, and the errors. Run by tests/files-api.test.js. */
#include <spindle/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                           \
            failures++;                                                                                      \
        }                                                                                                    \
    } while (0)

struct seen {
    unsigned char *bytes; /* the host's side */
    int64_t next;         /* where the next piece must start */
    int pieces, holes, ends;
    int fill; /* COPY_IN: write bytes into pieces; else read them out */
};

static void visit(void *piece, size_t n, int64_t at, void *ctx)
{
    struct seen *s = ctx;
    if (n == 0) {
        s->ends++;
        CHECK(piece == NULL && at == s->next);
        return;
    }
    CHECK(s->ends == 0 && at == s->next);
    CHECK((at >> 12) == ((at + (int64_t)n - 1) >> 12)); /* within one 4 KiB chunk */
    if (piece == NULL) {
        s->holes++;
        memset(s->bytes + at, 0, n);
    } else if (s->fill) {
        memcpy(piece, s->bytes + at, n);
    } else {
        memcpy(s->bytes + at, piece, n);
    }
    s->pieces++;
    s->next = at + (int64_t)n;
}

int main(void)
{
    CHECK(spindle_fs_init() == 0);
    enum { SIZE = 3 * 4096 + 123, AT = 1000 };
    unsigned char *src = malloc(AT + SIZE), *back = calloc(1, AT + SIZE), *check = malloc(AT + SIZE);
    for (int i = 0; i < AT + SIZE; i++)
        src[i] = (unsigned char)(i * 7 + 3);

    /* write [AT, AT+SIZE) of a new file, read it back both ways */
    int fd = spindle_fs_openat(SPINDLE_AT_FDCWD, "/tmp/f", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644);
    struct seen in = {src, AT, 0, 0, 0, 1};
    CHECK(spindle_fs_copy_pieces(fd, AT, SIZE, SPINDLE_COPY_IN, visit, &in) == SIZE);
    CHECK(in.ends == 1 && in.pieces == 4 && in.holes == 0);
    struct spindle_stat st;
    CHECK(spindle_fs_fstat(fd, &st) == 0 && st.size == AT + SIZE);
    CHECK(spindle_fs_pread(fd, check, AT + SIZE, 0) == AT + SIZE);
    CHECK(memcmp(check + AT, src + AT, SIZE) == 0);
    for (int i = 0; i < AT; i++)
        CHECK(check[i] == 0);
    struct seen out = {back, 0, 0, 0, 0, 0};
    CHECK(spindle_fs_copy_pieces(fd, 0, 1 << 20, SPINDLE_COPY_OUT, visit, &out) ==
          AT + SIZE); /* stops at EOF */
    CHECK(out.ends == 1 && out.next == AT + SIZE && memcmp(back, check, AT + SIZE) == 0);

    /* holes: a file extended by ftruncate has no chunks there */
    CHECK(spindle_fs_ftruncate(fd, 5 * 4096) == 0);
    unsigned char *big = malloc(5 * 4096);
    memset(big, 0xee, 5 * 4096);
    struct seen holes = {big, 0, 0, 0, 0, 0};
    CHECK(spindle_fs_copy_pieces(fd, 0, 5 * 4096, SPINDLE_COPY_OUT, visit, &holes) == 5 * 4096);
    CHECK(holes.holes == 1 && memcmp(big, check, AT + SIZE) == 0 && big[5 * 4096 - 1] == 0);
    spindle_fs_close(fd);

    /* a small file (its first chunk is smaller than 4 KiB) extended by ftruncate: the piece ends
     * where the small chunk does, the rest is a hole (ASan would catch an overrun) */
    fd = spindle_fs_openat(SPINDLE_AT_FDCWD, "/tmp/small", SPINDLE_O_RDWR | SPINDLE_O_CREAT, 0644);
    CHECK(spindle_fs_write(fd, "tiny", 4) == 4);
    CHECK(spindle_fs_ftruncate(fd, 3000) == 0);
    memset(big, 0xee, 3000);
    struct seen small = {big, 0, 0, 0, 0, 0};
    CHECK(spindle_fs_copy_pieces(fd, 0, 3000, SPINDLE_COPY_OUT, visit, &small) == 3000);
    CHECK(small.holes == 1 && memcmp(big, "tiny", 4) == 0 && big[4] == 0 && big[2999] == 0);
    spindle_fs_close(fd);

    /* errors */
    struct seen none = {back, 0, 0, 0, 0, 0};
    int dir = spindle_fs_openat(SPINDLE_AT_FDCWD, "/tmp", SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
    CHECK(spindle_fs_copy_pieces(dir, 0, 1, SPINDLE_COPY_OUT, visit, &none) == -SPINDLE_EISDIR);
    spindle_fs_close(dir);
    fd = spindle_fs_openat(SPINDLE_AT_FDCWD, "/tmp/f", SPINDLE_O_RDONLY, 0);
    CHECK(spindle_fs_copy_pieces(fd, 0, 1, SPINDLE_COPY_IN, visit, &none) == -SPINDLE_EBADF);
    CHECK(spindle_fs_copy_pieces(fd, -1, 1, SPINDLE_COPY_OUT, visit, &none) == -SPINDLE_EINVAL);
    spindle_fs_close(fd);
    CHECK(spindle_fs_copy_pieces(999, 0, 1, SPINDLE_COPY_OUT, visit, &none) == -SPINDLE_EBADF);
    CHECK(none.pieces == 0 && none.ends == 0);

    free(src), free(back), free(check), free(big);
    printf("%s\n", failures ? "copy_pieces: FAILED" : "copy_pieces: ok");
    return failures != 0;
}
