// An exception nobody catches ends the program through std::terminate, which names the
// exception and prints its what() on stderr; the exit status is abort's.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace {

[[gnu::noinline]] void load_config(const char *path)
{
    throw std::runtime_error(std::string("config file missing: ") + path);
}

} // namespace

int main()
{
    std::puts("loading");
    std::fflush(stdout);
    load_config("/etc/app.conf");
    std::puts("not reached");
}
