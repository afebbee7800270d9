// exit() called where C++ cleanups are in force (a local with a destructor, inside a noexcept
// function) ends the program with its status and runs no destructor, as natively: the host's
// exit must not be caught by the destructor's or the noexcept function's landing pad.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace {

struct announces_destruction {
    ~announces_destruction() { (void)!write(1, "destructor ran\n", 15); } // unbuffered
};

[[gnu::noinline]] void may_throw_or_exit(int argc)
{
    if (argc == 42)
        throw argc;
    if (argc > 0)
        std::exit(3);
}

[[gnu::noinline]] void with_cleanup(int argc)
{
    announces_destruction local;
    may_throw_or_exit(argc);
}

[[gnu::noinline]] void no_throw(int argc) noexcept { with_cleanup(argc); }

} // namespace

int main(int argc, char **)
{
    std::puts("before exit");
    std::fflush(stdout);
    no_throw(argc);
    std::puts("not reached");
}
