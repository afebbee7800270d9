// std::terminate (its mangled name, linked with --wrap=_ZSt9terminatev): notes that the program
// is ending through it, then runs libc++abi's, which prints why and aborts
// (abort_after_terminate.c). In its own file so that a C program, which never calls it, does
// not need libc++abi's definition.
#include <stdatomic.h>

#include "terminating.h"

_Noreturn void __real__ZSt9terminatev(void);

_Noreturn void __wrap__ZSt9terminatev(void)
{
    atomic_store(&spindle_terminating, 1);
    __real__ZSt9terminatev();
}
