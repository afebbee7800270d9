// std::terminate ends a C++ program with abort() after libc++abi printed why ("terminating due
// to uncaught exception of type ..."). Natively that is all: status 134. wasi-libc's abort
// traps instead, and the host then adds "thread N: trap: unreachable" and a stack trace to a
// message that was already complete. So the abort that follows std::terminate exits with 134,
// as Rust's abort does (runtime/rust/abort_exit.c); any other abort still traps, and its trace
// shows where it came from. Linked with --wrap=abort and --wrap=_ZSt9terminatev.
#include <stdatomic.h>
#include <stdlib.h>

#include "terminating.h"

atomic_bool spindle_terminating;

_Noreturn void __real_abort(void);

// weak: a Rust program's own (runtime/rust) ends every abort with 134
__attribute__((weak)) _Noreturn void __wrap_abort(void)
{
    if (atomic_load(&spindle_terminating))
        _Exit(134);
    __real_abort();
}
