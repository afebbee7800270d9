// std::this_thread::sleep_for / sleep_until sleep at least as long as asked,
// steady_clock never goes backwards, yield returns. Only booleans printed.
#include <chrono>
#include <cstdio>
#include <thread>

int main()
{
    using namespace std::chrono;
    int failures = 0;

    auto start = steady_clock::now();
    std::this_thread::sleep_for(milliseconds(30));
    auto slept = steady_clock::now() - start;
    bool sleep_for_ok = slept >= milliseconds(30);
    std::printf("sleep_for 30 ms slept at least 30 ms: %d\n", sleep_for_ok ? 1 : 0);
    failures += !sleep_for_ok;

    auto deadline = steady_clock::now() + milliseconds(25);
    std::this_thread::sleep_until(deadline);
    bool sleep_until_ok = steady_clock::now() >= deadline;
    std::printf("sleep_until reached its deadline: %d\n", sleep_until_ok ? 1 : 0);
    failures += !sleep_until_ok;

    bool monotonic = true;
    auto previous = steady_clock::now();
    for (int i = 0; i < 10000; i++) {
        auto now = steady_clock::now();
        if (now < previous)
            monotonic = false;
        previous = now;
        if (i % 1000 == 0)
            std::this_thread::yield();
    }
    std::printf("steady_clock monotonic over 10000 reads: %d\n", monotonic ? 1 : 0);
    failures += !monotonic;

    // Two threads sleeping at the same time both wake up. (No upper bound on
    // the time: starting the first worker thread can itself take ~100 ms.)
    start = steady_clock::now();
    std::thread other([] { std::this_thread::sleep_for(milliseconds(50)); });
    std::this_thread::sleep_for(milliseconds(50));
    other.join();
    auto pair = steady_clock::now() - start;
    bool both_woke = pair >= milliseconds(50);
    std::printf("two concurrent 50 ms sleeps both finished, at least 50 ms: %d\n", both_woke ? 1 : 0);
    failures += !both_woke;

    bool system_clock_sane =
        duration_cast<seconds>(system_clock::now().time_since_epoch()).count() > 1577836800;
    std::printf("system_clock after 2020: %d\n", system_clock_sane ? 1 : 0);
    failures += !system_clock_sane;

    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
