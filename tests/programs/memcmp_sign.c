// memcmp's sign and zero for every length 0..80, every offset 0..7 and a difference at each
// position (runtime/core/memcmp.c replaces libc's), compared with the native build.
#include <stdio.h>
#include <string.h>

static int sign(int v) { return (v > 0) - (v < 0); }

int main(void)
{
    static unsigned char a[128], b[128];
    unsigned long long signature = 0, zeros = 0;
    for (int off = 0; off < 8; off++)
        for (int len = 0; len <= 80; len++)
            for (int at = -1; at < len; at++) {
                for (int i = 0; i < 128; i++)
                    a[i] = b[i] = (unsigned char)(i * 37 + 11);
                if (at >= 0) {
                    b[off + at] = (unsigned char)(a[off + at] + (at % 2 ? 1 : 255)); // above or below
                    a[off + len] ^= 0xff; // a difference past the end must not count
                }
                int s = sign(memcmp(a + off, b + off, (size_t)len));
                zeros += s == 0;
                signature = signature * 3 + (unsigned)(s + 1);
            }
    printf("equal %llu, signature %llx\n", zeros, signature);
    return 0;
}
