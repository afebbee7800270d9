// The Wasm exception tag of C++ exceptions, and what the host calls when one was never caught.
// Archived into libc++abi.a by scripts/build-libcxx.sh, as one object: every module that throws
// or catches references the tag, so it always gets both.
#include <cxxabi.h>
#include <exception>

// The tag is thrown by libunwind's _Unwind_RaiseException and caught by code compiled with
// -fwasm-exceptions, which only reference it; a module must define it once. Its one i32 is the
// address of the _Unwind_Exception.
asm(".globl __cpp_exception\n.tagtype __cpp_exception i32\n__cpp_exception:\n");

// Wasm unwinds in one phase, so an exception with no handler leaves the module instead of
// reaching std::terminate. The host (host/cxx-exceptions.js) passes it back here: marking it
// caught makes the terminate handler print its type and what() before abort, as natively.
extern "C" [[noreturn]] void __spindle_uncaught_exception(void *unwind_exception)
{
    __cxxabiv1::__cxa_begin_catch(unwind_exception);
    std::terminate();
}
