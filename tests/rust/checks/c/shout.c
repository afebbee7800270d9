// Reads a file Rust wrote and writes it back upper-cased, with libc's stdio and malloc: under
// spindle cargo both are the same runtime's as Rust's std::fs and allocator.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

long shout_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    size_t cap = 16, len = 0;
    char *text = malloc(cap);
    int c;
    while (text && (c = fgetc(in)) != EOF) {
        if (len == cap)
            text = realloc(text, cap *= 2);
        if (text)
            text[len++] = (char)toupper(c);
    }
    fclose(in);
    if (!text)
        return -1;
    FILE *out = fopen(to, "wb");
    long written = out ? (long)fwrite(text, 1, len, out) : -1;
    if (out)
        fclose(out);
    free(text);
    return written;
}
