// C++ exceptions: thrown several calls deep and caught by type (derived before base), rethrown,
// nested try blocks, destructors run while unwinding, catch(...); caught inside threads; carried
// between threads by std::promise::set_exception, std::async and std::exception_ptr.
#include <cstdio>
#include <exception>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct parse_error : std::runtime_error {
    int line;
    parse_error(const std::string &what, int line) : std::runtime_error(what), line(line) {}
};

struct noisy {
    const char *name;
    explicit noisy(const char *name) : name(name) {}
    ~noisy() { std::printf("  ~%s\n", name); }
};

int depth_reached = 0;

void descend(int depth, int throw_at)
{
    noisy guard(depth == 1 ? "guard1" : depth == 2 ? "guard2" : "guard3");
    depth_reached = depth;
    if (depth == throw_at)
        throw parse_error("bad token", depth * 10);
    descend(depth + 1, throw_at);
}

int rethrow_count(int rounds)
{
    int seen = 0;
    try {
        try {
            throw std::out_of_range("inner");
        } catch (const std::logic_error &) {
            seen++;
            throw; // the same object goes on
        }
    } catch (const std::out_of_range &e) {
        seen += std::string(e.what()) == "inner";
    }
    return rounds > 1 ? seen + rethrow_count(rounds - 1) : seen;
}

long long sum_or_throw(int n)
{
    if (n < 0)
        throw std::invalid_argument("negative count");
    long long s = 0;
    for (int i = 1; i <= n; i++)
        s += i;
    return s;
}

} // namespace

int main()
{
    int failures = 0;

    std::puts("across functions:");
    try {
        descend(1, 3);
        std::puts("  not reached");
        failures++;
    } catch (const parse_error &e) {
        std::printf("  caught parse_error '%s' line %d (depth %d)\n", e.what(), e.line, depth_reached);
    } catch (const std::exception &) {
        std::puts("  caught the base class first");
        failures++;
    }

    int seen = rethrow_count(3);
    std::printf("rethrown and caught %d of 6\n", seen);
    failures += seen != 6;

    try {
        throw 42;
    } catch (const char *) {
        failures++;
    } catch (...) {
        std::puts("catch(...) caught an int");
    }

    std::exception_ptr saved;
    try {
        throw std::runtime_error("kept for later");
    } catch (...) {
        saved = std::current_exception();
    }
    try {
        std::rethrow_exception(saved);
    } catch (const std::runtime_error &e) {
        std::printf("rethrow_exception: %s\n", e.what());
    }

    // Each thread throws and catches its own exceptions, all at once.
    std::vector<std::thread> threads;
    std::vector<int> caught(4);
    for (int t = 0; t < 4; t++) {
        threads.emplace_back([t, &caught] {
            for (int i = 0; i < 1000; i++) {
                try {
                    if (i % 2)
                        throw std::runtime_error("odd");
                    throw t;
                } catch (const std::runtime_error &) {
                    caught[t]++;
                } catch (int who) {
                    caught[t] += who == t;
                }
            }
        });
    }
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < 4; t++) {
        std::printf("thread %d caught %d of 1000\n", t, caught[t]);
        failures += caught[t] != 1000;
    }

    // An exception set in one thread is thrown by future::get in another.
    std::promise<int> promise;
    std::future<int> future = promise.get_future();
    std::thread producer([&promise] {
        try {
            throw parse_error("from the producer", 7);
        } catch (...) {
            promise.set_exception(std::current_exception());
        }
    });
    try {
        (void)future.get();
        failures++;
    } catch (const parse_error &e) {
        std::printf("future.get threw '%s' line %d\n", e.what(), e.line);
    }
    producer.join();

    auto async_result = std::async(std::launch::async, sum_or_throw, -1);
    try {
        (void)async_result.get();
        failures++;
    } catch (const std::invalid_argument &e) {
        std::printf("std::async threw '%s'\n", e.what());
    }
    std::printf("std::async sum 1..100 = %lld\n", std::async(std::launch::async, sum_or_throw, 100).get());

    std::printf("%s\n", failures ? "FAILED" : "all ok");
    return failures ? 1 : 0;
}
