// Reads all of stdin with fgets, counting lines and bytes, and echoes each
// line upper-cased with its number. The last line has no trailing newline.
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char line[4096];
    long lines = 0, bytes = 0, partial_last_line = 0;
    while (fgets(line, sizeof line, stdin)) {
        size_t length = strlen(line);
        bytes += (long)length;
        int complete = length > 0 && line[length - 1] == '\n';
        if (complete) {
            line[length - 1] = '\0';
            lines++;
        } else {
            partial_last_line = 1;
        }
        for (char *c = line; *c; c++)
            *c = (char)toupper((unsigned char)*c);
        printf("%ld: %s%s\n", lines + (complete ? 0 : 1), line, complete ? "" : " (no newline)");
    }
    printf("lines=%ld bytes=%ld unterminated_last_line=%ld eof=%d error=%d\n", lines, bytes,
           partial_last_line, feof(stdin) != 0, ferror(stdin) != 0);
    return 0;
}
