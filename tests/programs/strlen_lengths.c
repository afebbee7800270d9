// strlen for every start offset 0..15 and length 0..80, and for strings that start in the last
// bytes before a 64 KiB boundary (runtime/core/strlen.c replaces libc's, reads whole words and
// takes another path there): zero bytes before the string must not end it, and the bytes after
// the terminator (0x01 after a zero is what a word-at-a-time test can mistake) must not matter.
// Checked against a byte loop and compared with the native build.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char fills[] = {0x01, 0x80, 0xff, 0x7f, 'a'};
static unsigned long long signature, wrong, checked;

// volatile: the compiler must not recognise this loop as strlen and call the function under test
static size_t bytewise_length(const volatile char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

// The string at area + off of length len, in an area of `size` bytes, with fill pattern f.
static void check(char *area, int size, int off, int len, unsigned f)
{
    for (int i = 0; i < size; i++)
        area[i] = (char)(i < off ? (f % 2 ? 0 : fills[f]) : fills[(f + (unsigned)i) % sizeof fills]);
    area[off + len] = 0;
    if (off + len + 1 < size)
        area[off + len + 1] = (char)fills[f];
    size_t got = strlen(area + off);
    wrong += got != bytewise_length(area + off) || got != (size_t)len;
    signature = signature * 31 + got;
    checked++;
}

int main(void)
{
    static _Alignas(16) char buffer[128];
    for (int off = 0; off < 16; off++)
        for (int len = 0; len <= 80; len++)
            for (unsigned f = 0; f < sizeof fills; f++)
                check(buffer, sizeof buffer, off, len, f);

    // 64 bytes around a 64 KiB boundary: starts from 24 bytes before it to 8 after
    char *block = malloc(2 * 65536);
    if (!block)
        return 2;
    char *around = (char *)(((uintptr_t)block + 65536) & ~(uintptr_t)65535) - 32;
    for (int off = 8; off <= 40; off++)
        for (int len = 0; off + len < 63; len++)
            for (unsigned f = 0; f < sizeof fills; f++)
                check(around, 64, off, len, f);
    free(block);

    printf("checked %llu, wrong %llu, signature %llx\n", checked, wrong, signature);
    return wrong != 0;
}
