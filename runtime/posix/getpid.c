/* getpid: a Spindle program is one process; it reports pid 1. Weak, so that a library that
 * emulates getpid (wasi-libc's -lwasi-emulated-getpid) takes precedence without a clash. */
#include <unistd.h>

__attribute__((weak)) pid_t getpid(void) { return 1; }
