/* strerror for numbers libc has no text for: "Unknown error N", as glibc says (wasi-libc
 * reused another message, strerror(-1) was "Success"). Linked with --wrap=strerror. */
#include <errno.h>

#include "../include/spindle/decimal.h"

char *__real_strerror(int errnum);

char *__wrap_strerror(int errnum)
{
    static _Thread_local char unknown[32];
    /* libc gives a number it does not know the text of 0 ("Success") */
    char *text = __real_strerror(errnum);
    if (errnum != 0 && text == __real_strerror(0)) {
        char *at = spindle_put_text(unknown, errnum < 0 ? "Unknown error -" : "Unknown error ");
        spindle_put_decimal(at, errnum < 0 ? -(uint64_t)errnum : (uint64_t)errnum);
        return unknown;
    }
    return text;
}
