// The runtime half of clang's setjmp/longjmp lowering for Wasm (`-mllvm -wasm-enable-sjlj`),
// built into the sysroot as libsetjmp.a (scripts/build-libc-extras.sh). The compiler rewrites a
// function that calls setjmp: each setjmp becomes __wasm_setjmp(env, label, invocation), where
// `invocation` identifies this call of that function (the address of a stack slot, so it is
// unique per thread and per recursion level), and every call that may longjmp is wrapped in a
// catch of the `__c_longjmp` tag which asks __wasm_setjmp_test whether the jump targets it.
// longjmp throws that tag with a pointer to {env, value}: the engine unwinds, nothing here walks
// stacks. All state lives in the jmp_buf or in thread-local storage, so threads never share it.
#include <setjmp.h>
#include <stdint.h>

// What __wasm_setjmp records in the caller's jmp_buf (which is much larger than this).
struct jump_target {
    void *invocation; // the frame of the function that called setjmp
    uint32_t label;   // which of its setjmp calls, numbered from 1 by the compiler
};
_Static_assert(sizeof(struct jump_target) <= sizeof(jmp_buf), "jmp_buf too small");

// The payload of the thrown tag. Its layout is fixed by the compiler's lowering, which reads
// the target env at offset 0 and the value at offset 4.
struct longjmp_payload {
    void *env;
    int value;
};

// One per thread: a longjmp in flight belongs to the thread that threw it.
static _Thread_local struct longjmp_payload in_flight;

void __wasm_setjmp(void *env, uint32_t label, void *invocation)
{
    struct jump_target *target = env;
    target->invocation = invocation;
    target->label = label;
}

// The label to resume at when `env` was set by this invocation; 0 when the jump is for a frame
// further out (the catch then rethrows).
uint32_t __wasm_setjmp_test(void *env, void *invocation)
{
    const struct jump_target *target = env;
    return target->invocation == invocation ? target->label : 0;
}

_Noreturn void __wasm_longjmp(void *env, int value)
{
    in_flight.env = env;
    in_flight.value = value == 0 ? 1 : value; // longjmp(env, 0) makes setjmp return 1
    __builtin_wasm_throw(1, &in_flight);      // tag 1 is __c_longjmp
}
