// 1,000,000 exceptions thrown and caught one call down, as a parser that reports errors by
// throwing would. stdout is checked; the time goes to stderr (the measurement in
// docs/PORTING.md).
#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace {

[[gnu::noinline]] int check(int i)
{
    if (i % 3 != 1)
        throw std::runtime_error("rejected");
    return i;
}

} // namespace

int main()
{
    const int rounds = 1000000;
    long long accepted = 0, rejected = 0;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds * 3 / 2; i++) {
        try {
            accepted += check(i);
        } catch (const std::runtime_error &) {
            rejected++;
        }
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("thrown and caught %lld, sum of the others %lld\n", rejected, accepted);
    std::fprintf(stderr, "1e6 throw/catch: %.0f ms (%.2f us each)\n", ms, ms * 1000 / rejected);
    return rejected == rounds ? 0 : 1;
}
