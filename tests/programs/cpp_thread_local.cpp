// thread_local objects with constructors and destructors: constructed lazily
// once per thread that uses them, destroyed when that thread exits (before
// join returns). Also function-local statics initialised exactly once under a
// race (the compiler's guard variables).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<int> constructed{0};
std::atomic<int> destroyed{0};
std::atomic<int> destroyed_value_sum{0};

struct Tracker {
    int value;
    std::string name;
    Tracker() : value(0), name("tracker") { constructed++; }
    ~Tracker()
    {
        destroyed++;
        destroyed_value_sum += value;
    }
};

thread_local Tracker tracker;
thread_local int plain_counter = 3;

std::atomic<int> static_constructions{0};

struct Expensive {
    int payload;
    Expensive() : payload(0)
    {
        static_constructions++;
        // Widen the race window so other threads arrive during construction.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        payload = 99;
    }
};

int read_shared_static()
{
    static Expensive instance;
    return instance.payload;
}

}  // namespace

int main()
{
    constexpr int kUsers = 6, kNonUsers = 2;
    std::vector<std::thread> threads;
    std::vector<int> plain_start(kUsers + kNonUsers, -1), static_seen(kUsers + kNonUsers, -1);
    for (int i = 0; i < kUsers; i++) {
        threads.emplace_back([i, &plain_start, &static_seen] {
            plain_start[i] = plain_counter;
            plain_counter += 100;
            tracker.value = i + 1;
            static_seen[i] = read_shared_static();
        });
    }
    // These threads never touch `tracker`, so it is never built for them.
    for (int i = kUsers; i < kUsers + kNonUsers; i++) {
        threads.emplace_back([i, &plain_start, &static_seen] {
            plain_start[i] = plain_counter;
            static_seen[i] = read_shared_static();
        });
    }
    for (auto &t : threads)
        t.join();

    bool plain_ok = true, static_ok = true;
    for (int i = 0; i < kUsers + kNonUsers; i++) {
        plain_ok = plain_ok && plain_start[i] == 3;
        static_ok = static_ok && static_seen[i] == 99;
    }
    std::printf("thread_local constructed=%d destroyed=%d destroyed value sum=%d\n", constructed.load(),
                destroyed.load(), destroyed_value_sum.load());
    std::printf("plain thread_local started at initial value in every thread=%d\n", plain_ok ? 1 : 0);
    std::printf("function static constructed %d time(s), all threads saw it complete=%d\n",
                static_constructions.load(), static_ok ? 1 : 0);
    std::printf("main's plain_counter untouched=%d\n", plain_counter == 3 ? 1 : 0);
    bool ok = constructed == kUsers && destroyed == kUsers && destroyed_value_sum == 21 && plain_ok &&
              static_ok && static_constructions == 1 && plain_counter == 3;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
