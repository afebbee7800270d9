// Writes numbered lines to stdout until the reader goes away: `printf` (stdio's buffer) by
// default, `raw` for plain write(2) calls. A write that fails says so on stderr, which a
// program ended by the broken pipe must never get to do.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int raw = argc > 1 && strcmp(argv[1], "raw") == 0;
    char line[64];
    for (unsigned long i = 0;; i++) {
        int n = snprintf(line, sizeof line, "line %lu\n", i);
        if (raw ? write(1, line, (size_t)n) < 0 : fputs(line, stdout) < 0) {
            fprintf(stderr, "write failed: %s\n", strerror(errno));
            return 3;
        }
    }
}
