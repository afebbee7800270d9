// sbrk for --malloc=dlmalloc builds (cli/build/cc.js wraps it): wasi-libc's sbrk grows memory by
// exactly what dlmalloc asks, often 64 KiB at a time; this one keeps its own break and grows
// through the shared policy (spindle/memory.h), so dlmalloc builds grow as rarely as Spindle's.
// Nothing else grows memory in those builds, so the pages above the break stay ours.
#include <spindle/memory.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>

#define PAGE 65536u

static pthread_mutex_t break_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t program_break; // 0 until the first call: then the end of memory

void *__wrap_sbrk(intptr_t increment)
{
    pthread_mutex_lock(&break_lock);
    uintptr_t end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
    if (!program_break)
        program_break = end;
    uintptr_t old = program_break;
    void *result = (void *)old;
    if (increment < 0 || (uintptr_t)increment > UINTPTR_MAX - old) {
        errno = ENOMEM;
        result = (void *)-1;
    } else if (old + (uintptr_t)increment > end) {
        size_t missing = (old + (uintptr_t)increment - end + PAGE - 1) / PAGE;
        size_t granted;
        if (spindle_memory_grow(missing, &granted) == SIZE_MAX) {
            errno = ENOMEM;
            result = (void *)-1;
        }
    }
    if (result != (void *)-1)
        program_break = old + (uintptr_t)increment;
    pthread_mutex_unlock(&break_lock);
    return result;
}
