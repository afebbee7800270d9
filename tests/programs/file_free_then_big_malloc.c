// Memory freed by removing a large file must serve one large malloc: the filesystem's
// chunks come from the allocator, and freed pages have to coalesce into one run again.
// (Spindle's allocator once left a page-map island every 64 MiB: after this file was
// removed, no block above ~128 MiB could be had.) Runs under the default --max-memory=1G.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((size_t)1 << 20)

int main(void)
{
    static char chunk[MIB];
    memset(chunk, 'x', sizeof chunk);
    FILE *f = fopen("big.dat", "wb");
    if (!f) {
        perror("fopen");
        return 1;
    }
    for (int i = 0; i < 900; i++)
        if (fwrite(chunk, 1, MIB, f) != MIB) {
            perror("fwrite");
            return 1;
        }
    if (fclose(f) || remove("big.dat")) {
        perror("close/remove");
        return 1;
    }
    size_t want = 960 * MIB;
    char *big = malloc(want);
    if (!big) {
        printf("malloc(960 MiB) after removing a 900 MiB file failed\n");
        return 1;
    }
    big[0] = 1;
    big[want - 1] = 2;
    printf("malloc(960 MiB) after removing a 900 MiB file: ok\n");
    free(big);
    return 0;
}
