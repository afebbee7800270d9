// Global constructors run before main in declaration order; destructors of
// globals and function statics run after main returns, in reverse order of
// construction; output written by them still reaches stdout.
#include <cstdio>
#include <functional>
#include <string>

namespace {

struct Announcer {
    std::string name;
    explicit Announcer(const char *n) : name(n) { std::printf("construct %s\n", name.c_str()); }
    ~Announcer() { std::printf("destroy %s\n", name.c_str()); }
};

Announcer first("first global");
Announcer second("second global");

Announcer &lazy()
{
    static Announcer instance("function static");
    return instance;
}

}  // namespace

int main()
{
    std::printf("main starts\n");
    std::function<std::string()> describe = [] { return lazy().name + " ready"; };
    std::printf("%s\n", describe().c_str());
    std::printf("main returns 3\n");
    return 3;
}
