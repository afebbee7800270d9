// C++20 std::atomic::wait/notify_one: two threads take turns through one
// atomic, each blocking in wait() until the other flips it.
#include <atomic>
#include <cstdio>
#include <thread>

int main()
{
    constexpr int kRounds = 2000;
    std::atomic<int> turn{0};
    long pings = 0, pongs = 0;
    std::thread ponger([&] {
        for (int i = 0; i < kRounds; i++) {
            turn.wait(0);  // sleep while it is still the pinger's turn
            pongs++;
            turn.store(0);
            turn.notify_one();
        }
    });
    for (int i = 0; i < kRounds; i++) {
        pings++;
        turn.store(1);
        turn.notify_one();
        turn.wait(1);
    }
    ponger.join();
    std::printf("pings=%ld pongs=%ld\n", pings, pongs);
    bool ok = pings == kRounds && pongs == kRounds;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
