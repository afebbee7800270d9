// std::thread with lambdas and arguments, std::thread::id, and the standard
// mutex family: mutex, recursive_mutex, shared_mutex, scoped_lock on two
// mutexes, unique_lock with try_to_lock, and std::call_once.
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kIncrements = 50000;

std::mutex counter_mutex;
long counter = 0;

std::mutex left_mutex, right_mutex;
long left_total = 0, right_total = 0;

std::recursive_mutex recursive;
int recursion_hits = 0;

std::shared_mutex table_mutex;
long table_a = 0, table_b = 0;

std::once_flag init_flag;
int init_runs = 0;

void recurse_locked(int depth)
{
    std::lock_guard<std::recursive_mutex> guard(recursive);
    recursion_hits++;
    if (depth > 0)
        recurse_locked(depth - 1);
}

}  // namespace

int main()
{
    int failures = 0;

    std::vector<std::thread> threads;
    std::vector<long> partial(kThreads, 0);
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back(
            [t, &partial](int increments) {
                std::call_once(init_flag, [] { init_runs++; });
                for (int i = 0; i < increments; i++) {
                    {
                        std::lock_guard<std::mutex> guard(counter_mutex);
                        counter++;
                    }
                    // Lock two mutexes in opposite orders in alternate threads:
                    // scoped_lock must avoid the deadlock.
                    if (t % 2 == 0) {
                        std::scoped_lock both(left_mutex, right_mutex);
                        left_total++;
                        right_total += 2;
                    } else {
                        std::scoped_lock both(right_mutex, left_mutex);
                        left_total++;
                        right_total += 2;
                    }
                    partial[t]++;
                }
                recurse_locked(10);
            },
            kIncrements);
    }
    for (auto &thread : threads) {
        if (!thread.joinable())
            failures++;
        thread.join();
        if (thread.joinable())
            failures++;
    }
    long partial_sum = 0;
    for (long p : partial)
        partial_sum += p;
    std::printf("mutex counter=%ld partial sum=%ld expected=%ld\n", counter, partial_sum,
                static_cast<long>(kThreads) * kIncrements);
    std::printf("scoped_lock totals: %ld %ld\n", left_total, right_total);
    std::printf("recursive_mutex hits=%d call_once runs=%d\n", recursion_hits, init_runs);
    failures += counter != static_cast<long>(kThreads) * kIncrements || partial_sum != counter;
    failures += left_total != counter || right_total != 2 * counter;
    failures += recursion_hits != kThreads * 11 || init_runs != 1;

    // Readers under shared_lock must never see the two fields differ.
    long torn = 0;
    {
        std::vector<std::thread> readers;
        std::mutex torn_mutex;
        std::thread writer([] {
            for (int i = 0; i < 20000; i++) {
                std::unique_lock<std::shared_mutex> lock(table_mutex);
                table_a++;
                table_b++;
            }
        });
        for (int r = 0; r < 2; r++) {
            readers.emplace_back([&] {
                long mine = 0;
                for (int i = 0; i < 20000; i++) {
                    std::shared_lock<std::shared_mutex> lock(table_mutex);
                    if (table_a != table_b)
                        mine++;
                }
                std::lock_guard<std::mutex> guard(torn_mutex);
                torn += mine;
            });
        }
        writer.join();
        for (auto &reader : readers)
            reader.join();
    }
    std::printf("shared_mutex: a=%ld b=%ld torn=%ld\n", table_a, table_b, torn);
    failures += table_a != 20000 || table_b != 20000 || torn != 0;

    // try_to_lock from another thread fails while main holds the mutex.
    bool other_got_it = true;
    {
        std::unique_lock<std::mutex> held(counter_mutex);
        std::thread([&] {
            std::unique_lock<std::mutex> attempt(counter_mutex, std::try_to_lock);
            other_got_it = attempt.owns_lock();
        }).join();
    }
    std::printf("try_to_lock while held by main: %s\n", other_got_it ? "acquired" : "refused");
    failures += other_got_it;

    // Thread ids: distinct from main's, equal to what the thread saw itself.
    std::thread::id seen_inside;
    std::thread probe([&] { seen_inside = std::this_thread::get_id(); });
    std::thread::id from_handle = probe.get_id();
    probe.join();
    bool ids_ok = seen_inside == from_handle && seen_inside != std::this_thread::get_id() &&
                  probe.get_id() == std::thread::id();
    std::printf("thread ids consistent: %d\n", ids_ok ? 1 : 0);
    failures += !ids_ok;

    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
