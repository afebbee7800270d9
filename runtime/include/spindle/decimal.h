/* Integer to text without printf: snprintf pulls libc's vfprintf (10 KB of code) into every
 * module, for the few places the runtime writes a number (/proc/self/fd, strerror). */
#ifndef SPINDLE_DECIMAL_H
#define SPINDLE_DECIMAL_H

#include <stdint.h>

/* Writes value in decimal at out, NUL-terminated; returns the end (the NUL). out needs 21 bytes. */
static inline char *spindle_put_decimal(char *out, uint64_t value)
{
    char digits[20];
    int n = 0;
    do
        digits[n++] = (char)('0' + value % 10);
    while ((value /= 10) != 0);
    while (n > 0)
        *out++ = digits[--n];
    *out = '\0';
    return out;
}

/* Copies the NUL-terminated text to out; returns the end (the NUL). */
static inline char *spindle_put_text(char *out, const char *text)
{
    while ((*out = *text++) != '\0')
        out++;
    return out;
}

#endif
