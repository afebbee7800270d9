// 200,000 formatted lines through printf, then a checksum of what was
// printed: the host must pass every byte through, in order, with none lost.
#include <stdint.h>
#include <stdio.h>

#define LINES 200000

int main(void)
{
    uint64_t checksum = 1469598103934665603ull;
    long bytes = 0;
    char line[128];
    for (long i = 0; i < LINES; i++) {
        int n = snprintf(line, sizeof line, "line %06ld value %08lx mixed %+.3f %s\n", i,
                         (unsigned long)((uint32_t)(i * 2654435761u)), (double)(i % 1000) / 7.0,
                         i % 3 == 0 ? "fizz" : "buzz");
        for (int k = 0; k < n; k++)
            checksum = (checksum ^ (unsigned char)line[k]) * 1099511628211ull;
        bytes += n;
        fputs(line, stdout);
    }
    printf("lines=%d bytes=%ld fnv1a64=%016llx\n", LINES, bytes, (unsigned long long)checksum);
    return 0;
}
