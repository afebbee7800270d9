// std::async (async and deferred launch), std::promise/std::future across
// threads, std::packaged_task, std::shared_future with several waiters, and
// future::wait_for reporting timeout then ready.
#include <chrono>
#include <cstdio>
#include <future>
#include <numeric>
#include <thread>
#include <vector>

namespace {

// long long: long is 32 bits on wasm32 and the total exceeds 2^31.
long long sum_range(long long from, long long to)
{
    long long sum = 0;
    for (long long i = from; i < to; i++)
        sum += i;
    return sum;
}

}  // namespace

int main()
{
    int failures = 0;

    std::vector<std::future<long long>> parts;
    for (long long part = 0; part < 8; part++)
        parts.push_back(std::async(std::launch::async, sum_range, part * 125000, (part + 1) * 125000));
    long long total = 0;
    for (auto &part : parts)
        total += part.get();
    std::printf("async sum 0..999999 = %lld\n", total);
    failures += total != 999999LL * 1000000LL / 2;

    std::thread::id deferred_ran_on;
    auto deferred = std::async(std::launch::deferred, [&] {
        deferred_ran_on = std::this_thread::get_id();
        return 7;
    });
    int deferred_value = deferred.get();
    bool deferred_on_caller = deferred_ran_on == std::this_thread::get_id();
    std::printf("deferred value=%d ran on calling thread=%d\n", deferred_value, deferred_on_caller ? 1 : 0);
    failures += deferred_value != 7 || !deferred_on_caller;

    std::promise<int> release;
    std::shared_future<int> shared = release.get_future().share();
    std::vector<std::future<int>> waiters;
    for (int i = 0; i < 4; i++)
        waiters.push_back(std::async(std::launch::async, [shared, i] { return shared.get() * 10 + i; }));
    // Nothing is set yet, so every waiter is still blocked.
    bool all_pending = true;
    for (auto &w : waiters)
        if (w.wait_for(std::chrono::milliseconds(5)) != std::future_status::timeout)
            all_pending = false;
    release.set_value(3);
    int waiter_sum = 0;
    for (auto &w : waiters)
        waiter_sum += w.get();
    std::printf("shared_future: waiters pending before set=%d, results sum=%d\n", all_pending ? 1 : 0,
                waiter_sum);
    failures += !all_pending || waiter_sum != 30 * 4 + 0 + 1 + 2 + 3;

    std::packaged_task<std::vector<int>(int)> task([](int n) {
        std::vector<int> squares(n);
        for (int i = 0; i < n; i++)
            squares[i] = i * i;
        return squares;
    });
    std::future<std::vector<int>> squares_future = task.get_future();
    std::thread runner(std::move(task), 10);
    std::vector<int> squares = squares_future.get();
    runner.join();
    int squares_sum = std::accumulate(squares.begin(), squares.end(), 0);
    std::printf("packaged_task squares sum=%d\n", squares_sum);
    failures += squares_sum != 285;

    std::promise<void> done;
    std::future<void> done_future = done.get_future();
    std::thread setter([&done] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        done.set_value();
    });
    bool first_timeout = done_future.wait_for(std::chrono::milliseconds(1)) == std::future_status::timeout;
    done_future.wait();
    bool then_ready = done_future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    setter.join();
    std::printf("promise<void>: timeout first=%d ready after=%d\n", first_timeout ? 1 : 0,
                then_ready ? 1 : 0);
    failures += !first_timeout || !then_ready;

    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
