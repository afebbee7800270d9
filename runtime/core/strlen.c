// strlen eight bytes at a time, the first sixteen without a branch on where the end is. wasi-libc's
// (musl's) walks byte by byte up to a 4-byte boundary, then 4 bytes at a time: on short strings
// a branch per byte that mispredicts as lengths vary, 4-10x glibc's time per call
// (tests/real/zstd_roundtrip.c spent longer in strlen, generating its text, than in compressing
// it). Linked before libc.a, so this definition is the one programs get (libc's own callers too).
//
// It reads past the terminator, which is safe in wasm: there is no protection inside linear
// memory, whose size is a multiple of 64 KiB, so 16 bytes that start in a 64 KiB page and do not
// cross its end are in memory, and so is every aligned word that holds a byte of the string.
#include <stdint.h>
#include <string.h>

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

// A high bit in each zero byte; above the lowest zero byte, other bytes can show one too (borrow),
// so only the lowest is exact, and it is the first in memory (wasm is little-endian).
static inline uint64_t zero_bytes(uint64_t x) { return (x - ONES) & ~x & HIGHS; }

static inline uint64_t load8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8); // one i64.load; alignment does not matter in wasm
    return x;
}

// no_builtin: the loop below must not be turned back into a call to strlen.
__attribute__((no_builtin("strlen"))) size_t strlen(const char *s)
{
    uintptr_t at = (uintptr_t)s;
    const char *word;
    uint64_t bytes;
    if (at % 65536 <= 65536 - 16) {
        uint64_t first = zero_bytes(load8(s)), second = zero_bytes(load8(s + 8));
        if (first | second)
            return (first ? 0 : 8) + (unsigned)__builtin_ctzll(first ? first : second) / 8;
        word = (const char *)((at + 16) & ~(uintptr_t)7); // the bytes from s up to it are not zero
        bytes = load8(word);
    } else { // the last 15 bytes of a page: aligned words only
        word = (const char *)(at & ~(uintptr_t)7);
        bytes = load8(word) | ((1ull << (at % 8 * 8)) - 1); // the bytes before s are not the end
    }
    for (;;) {
        uint64_t zeros = zero_bytes(bytes);
        if (zeros)
            return (size_t)(word - s) + (unsigned)__builtin_ctzll(zeros) / 8;
        word += 8;
        bytes = load8(word);
    }
}
