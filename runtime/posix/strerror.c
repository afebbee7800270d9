/* strerror for numbers libc has no text for: "Unknown error N", as glibc says (wasi-libc
 * reused another message, strerror(-1) was "Success"). Linked with --wrap=strerror. */
#include <errno.h>
#include <stdio.h>

char *__real_strerror(int errnum);

char *__wrap_strerror(int errnum)
{
    static _Thread_local char unknown[32];
    /* libc gives a number it does not know the text of 0 ("Success") */
    char *text = __real_strerror(errnum);
    if (errnum != 0 && text == __real_strerror(0)) {
        snprintf(unknown, sizeof unknown, "Unknown error %d", errnum);
        return unknown;
    }
    return text;
}
