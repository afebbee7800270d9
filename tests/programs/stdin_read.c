// Reads stdin with raw read(2) in small chunks until end of file, counting
// bytes, newlines and a FNV-1a hash; a further read after EOF returns 0.
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    unsigned char chunk[7]; // deliberately odd and small: many reads per line
    long bytes = 0, newlines = 0, reads = 0;
    uint32_t hash = 2166136261u;
    for (;;) {
        ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0) {
            perror("read");
            return 1;
        }
        if (n == 0)
            break;
        reads++;
        for (ssize_t i = 0; i < n; i++) {
            hash = (hash ^ chunk[i]) * 16777619u;
            newlines += chunk[i] == '\n';
        }
        bytes += n;
    }
    ssize_t after_eof = read(STDIN_FILENO, chunk, sizeof chunk);
    printf("bytes=%ld newlines=%ld fnv1a=%08x read_after_eof=%zd at_least_one_read_per_7_bytes=%d\n", bytes,
           newlines, hash, after_eof, reads >= (bytes + 6) / 7);
    return 0;
}
