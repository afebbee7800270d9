// The runtime half of the C stack check (cli/build/stack-check.js is the other half, docs/TOOLCHAIN.md).
// After linking, `spindle cc` rewrites every `global.set __stack_pointer` into a bounds check
// and a call to __spindle_stack_overflow when the new value is outside the thread's stack.
// Wasm globals belong to an instance, and each thread runs in its own instance (a pool worker
// runs one thread after another in its instance), so the limit is per thread: set here from the
// thread's real stack bounds when it starts, and unbounded between threads.
#define _GNU_SOURCE // pthread_getattr_np
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spindle/host_imports.h"
#include "stack_check.h"

// wasm-ld's bounds of the main thread's stack (--stack-size).
extern char __stack_low, __stack_high;

// The thread's stack is [__spindle_stack_limit, __spindle_stack_limit + __spindle_stack_size];
// the check is one unsigned comparison of (new stack pointer - limit) with the size, which also
// catches a stack pointer that wrapped below address 0 (the main stack starts near 0). The pass
// sets the size's initial value to 0xffffffff: no check until a thread sets its bounds.
__asm__(".globaltype __spindle_stack_limit, i32\n"
        ".globl __spindle_stack_limit\n"
        "__spindle_stack_limit:\n"
        ".globaltype __spindle_stack_size, i32\n"
        ".globl __spindle_stack_size\n"
        "__spindle_stack_size:\n");

// wasi-libc's default pthread stack size, which `--thread-stack-size` sets
extern unsigned __default_stacksize;
// Defined by runtime/rust, which every `spindle cargo` module links: std gives each of its
// threads the size it chooses (its default, RUST_MIN_STACK or Builder::stack_size).
__attribute__((weak)) extern const char spindle_rust_program;

static _Thread_local uint32_t stack_bytes; // for the message
static _Thread_local int stack_kind;       // SPINDLE_STACK_*: what sets this thread's size

static void set_bounds(uintptr_t low, uintptr_t size)
{
    __asm__ volatile("local.get %0\n global.set __spindle_stack_limit\n"
                     "local.get %1\n global.set __spindle_stack_size"
                     :
                     : "r"(low), "r"(size));
}

// Called by the rewritten code with the stack pointer still in bounds. It must not move the
// stack pointer itself (the pass checks that it does not): it has no frame.
__attribute__((export_name("__spindle_stack_overflow"))) // symbol = export name, for -u
void __spindle_stack_overflow(void)
{
    spindle_host_stack_overflow(stack_bytes, stack_kind);
}

// Names the three globals for the pass, which reads their indices from this body (a module
// may have no name section).
__attribute__((export_name("__spindle_stack_check_globals"))) void __spindle_stack_check_globals(void)
{
    __asm__ volatile(".globaltype __stack_pointer, i32\n global.get __stack_pointer\n drop\n"
                     " global.get __spindle_stack_limit\n drop\n global.get __spindle_stack_size\n drop");
}

__attribute__((constructor(101))) static void stack_check_main_thread(void)
{
    stack_bytes = (uint32_t)(&__stack_high - &__stack_low);
    stack_kind = SPINDLE_STACK_MAIN;
    set_bounds((uintptr_t)&__stack_low, stack_bytes);
}

// A thread's usable stack is a few bytes under the size asked for (alignment), so a size this
// close to the default is taken for it.
#define DEFAULT_SIZE_SLACK 256

static int thread_stack_kind(size_t size)
{
    bool is_default = size <= __default_stacksize && __default_stacksize - size < DEFAULT_SIZE_SLACK;
    if (!is_default)
        return SPINDLE_STACK_CHOSEN;
    return &spindle_rust_program != NULL ? SPINDLE_STACK_DEFAULT_OR_RUST : SPINDLE_STACK_DEFAULT;
}

void spindle_stack_check_thread_start(void)
{
    pthread_attr_t attr;
    void *low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr))
        return; // unknown bounds: left unchecked
    if (!pthread_attr_getstack(&attr, &low, &size)) {
        stack_bytes = (uint32_t)size;
        stack_kind = thread_stack_kind(size);
        set_bounds((uintptr_t)low, size);
    }
    pthread_attr_destroy(&attr);
}

void spindle_stack_check_thread_end(void) { set_bounds(0, UINTPTR_MAX); }
