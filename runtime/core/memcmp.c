// memcmp eight bytes at a time. wasi-libc's (musl's) compares byte by byte, several times slower
// than the memcpy/memset beside it, which compile to memory.copy/fill; a program that checks
// what it read spent as long in memcmp as in the file calls (bench/fs/stdio_files.c). Linked
// before libc.a, so this definition is the one programs get.
#include <stdint.h>
#include <string.h>

// no_builtin: the byte loop below must not be turned back into a call to memcmp.
__attribute__((no_builtin("memcmp"))) int memcmp(const void *left, const void *right, size_t n)
{
    const unsigned char *a = left, *b = right;
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8); // unaligned loads are fine in wasm
        memcpy(&y, b, 8);
        if (x != y) {
            unsigned first = (unsigned)__builtin_ctzll(x ^ y) / 8; // little-endian: lowest byte first
            return a[first] - b[first];
        }
    }
    for (; n > 0; a++, b++, n--) {
        if (*a != *b)
            return *a - *b;
    }
    return 0;
}
