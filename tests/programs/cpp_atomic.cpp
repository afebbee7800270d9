// std::atomic: fetch_add from many threads, compare_exchange loops, 64-bit
// atomics, release/acquire message passing, and a spinlock on atomic_flag.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kIterations = 50000;

std::atomic<int> added{0};
std::atomic<uint64_t> wide{0};
std::atomic<int> maximum{-1};
std::atomic_flag spin = ATOMIC_FLAG_INIT;
long spin_guarded = 0;

int payload[64];
std::atomic<bool> published{false};

}  // namespace

int main()
{
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([t] {
            for (int i = 0; i < kIterations; i++) {
                added.fetch_add(1, std::memory_order_relaxed);
                // Large steps so a torn 64-bit update would be visible.
                wide.fetch_add(0x100000001ull, std::memory_order_relaxed);
                int value = t * kIterations + i;
                int seen = maximum.load();
                while (seen < value && !maximum.compare_exchange_weak(seen, value)) {
                }
                while (spin.test_and_set(std::memory_order_acquire)) {
                }
                spin_guarded++;
                spin.clear(std::memory_order_release);
            }
        });
    }
    for (auto &t : threads)
        t.join();
    const long expected = static_cast<long>(kThreads) * kIterations;
    std::printf("fetch_add=%d expected=%ld\n", added.load(), expected);
    std::printf("64-bit fetch_add=%016llx expected=%016llx\n", static_cast<unsigned long long>(wide.load()),
                static_cast<unsigned long long>(expected * 0x100000001ull));
    std::printf("cmpxchg maximum=%d spinlock counter=%ld\n", maximum.load(), spin_guarded);
    std::printf("lock free: int=%d uint64=%d\n", std::atomic<int>{}.is_lock_free() ? 1 : 0,
                std::atomic<uint64_t>{}.is_lock_free() ? 1 : 0);

    // Data written before a release store is visible after an acquire load.
    std::thread writer([] {
        for (int i = 0; i < 64; i++)
            payload[i] = i * 3;
        published.store(true, std::memory_order_release);
    });
    std::thread reader_thread([] {
        while (!published.load(std::memory_order_acquire)) {
        }
        int sum = 0;
        for (int i = 0; i < 64; i++)
            sum += payload[i];
        std::printf("message passing payload sum=%d\n", sum);
    });
    writer.join();
    reader_thread.join();

    bool ok = added.load() == expected && wide.load() == static_cast<uint64_t>(expected) * 0x100000001ull &&
              maximum.load() == expected - 1 && spin_guarded == expected;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
