// abort() as an exit with status 134 (a native SIGABRT's shell status) instead of wasi-libc's
// trap. A Rust panic that is not caught (panic=abort on this target, or one in a thread) ends in
// abort() after std printed the panic's message; the trap would add a JS stack trace of the
// host to it. Linked with --wrap=abort.
#include <stdlib.h>

_Noreturn void __wrap_abort(void) { _Exit(134); }
