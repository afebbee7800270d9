// How a stack overflow ends a portable module (docs/PORTABLE.md). The check itself is the same
// as under Spindle's host (runtime/core/stack_check.c); the host's spindle.stack_overflow is
// replaced by a message on the host's stderr and exit status 134, as abort() gives natively.
// This runs with the thread's stack exhausted and every move of the stack pointer checked, so
// it must not use the C stack: the message is built in static memory (a second overflowing
// thread at the same moment may garble the text, never the exit).
#include <stdint.h>

#include "../core/stack_check.h"
#include "../wasi/wasi_host.h"
#include "spindle/host_imports.h"

static char message[192];
static struct {
    uint32_t buf, len;
} message_iovec;

static uint32_t append(uint32_t at, const char *text)
{
    while (*text && at < sizeof message)
        message[at++] = *text++;
    return at;
}

static uint32_t append_number(uint32_t at, uint32_t n)
{
    static char digits[12];
    uint32_t count = 0;
    do {
        digits[count++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (count && at < sizeof message)
        message[at++] = digits[--count];
    return at;
}

/* by what set the thread's stack size, as host/threads/stack-overflow.js words it */
static const char *const raise_it[] = {
    [SPINDLE_STACK_DEFAULT] = "raise it with --thread-stack-size",
    [SPINDLE_STACK_MAIN] = "raise it with --stack-size",
    [SPINDLE_STACK_CHOSEN] = ("raise the size the thread is created with (pthread_attr_setstacksize; "
                              "Rust: thread::Builder::stack_size or RUST_MIN_STACK)"),
    [SPINDLE_STACK_DEFAULT_OR_RUST] = ("raise it with --thread-stack-size, or for a Rust std::thread with "
                                       "thread::Builder::stack_size or RUST_MIN_STACK"),
};

_Noreturn void spindle_host_stack_overflow(uint32_t stack_bytes, int stack_kind)
{
    static uint32_t written;
    uint32_t at = append(0, "stack overflow (limit ");
    at = append_number(at, (stack_bytes + 512) / 1024);
    at = append(at, " KiB, ");
    at =
        append(at, raise_it[stack_kind >= 0 && stack_kind <= SPINDLE_STACK_DEFAULT_OR_RUST ? stack_kind : 0]);
    at = append(at, ")\n");
    message_iovec.buf = (uint32_t)(uintptr_t)message;
    message_iovec.len = at;
    host_fd_write(2, (int32_t)(uintptr_t)&message_iovec, 1, (int32_t)(uintptr_t)&written);
    host_proc_exit(134);
}
