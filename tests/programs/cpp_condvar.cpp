// std::condition_variable: a producer/consumer queue with wait(predicate),
// notify_all to stop consumers, and wait_for that times out.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace {

class BoundedQueue {
  public:
    explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}

    void push(uint32_t value)
    {
        std::unique_lock<std::mutex> lock(mutex_);
        not_full_.wait(lock, [this] { return items_.size() < capacity_; });
        items_.push_back(value);
        not_empty_.notify_one();
    }

    // Returns false once the queue is closed and drained.
    bool pop(uint32_t &value)
    {
        std::unique_lock<std::mutex> lock(mutex_);
        not_empty_.wait(lock, [this] { return !items_.empty() || closed_; });
        if (items_.empty())
            return false;
        value = items_.front();
        items_.pop_front();
        not_full_.notify_one();
        return true;
    }

    void close()
    {
        std::lock_guard<std::mutex> lock(mutex_);
        closed_ = true;
        not_empty_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable not_empty_, not_full_;
    std::deque<uint32_t> items_;
    size_t capacity_;
    bool closed_ = false;
};

uint64_t mix(uint32_t v)
{
    uint64_t x = v * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 31);
}

}  // namespace

int main()
{
    constexpr int kProducers = 2, kConsumers = 3;
    constexpr uint32_t kPerProducer = 8000;
    BoundedQueue queue(16);
    std::vector<uint64_t> sums(kConsumers, 0), mixes(kConsumers, 0), counts(kConsumers, 0);
    std::vector<std::thread> consumers, producers;
    for (int c = 0; c < kConsumers; c++) {
        consumers.emplace_back([&, c] {
            uint32_t value;
            while (queue.pop(value)) {
                counts[c]++;
                sums[c] += value;
                mixes[c] += mix(value);
            }
        });
    }
    for (int p = 0; p < kProducers; p++) {
        producers.emplace_back([&, p] {
            for (uint32_t i = 0; i < kPerProducer; i++)
                queue.push(p * kPerProducer + i);
        });
    }
    for (auto &t : producers)
        t.join();
    queue.close();
    for (auto &t : consumers)
        t.join();

    uint64_t count = 0, sum = 0, mixed = 0, expected_sum = 0, expected_mix = 0;
    for (int c = 0; c < kConsumers; c++) {
        count += counts[c];
        sum += sums[c];
        mixed += mixes[c];
    }
    for (uint32_t v = 0; v < kProducers * kPerProducer; v++) {
        expected_sum += v;
        expected_mix += mix(v);
    }
    std::printf("consumed=%llu sum=%llu checksum=%016llx\n", static_cast<unsigned long long>(count),
                static_cast<unsigned long long>(sum), static_cast<unsigned long long>(mixed));
    bool queue_ok = count == kProducers * kPerProducer && sum == expected_sum && mixed == expected_mix;

    // Nobody notifies: wait_for must report a timeout after at least 40 ms.
    std::mutex m;
    std::condition_variable never;
    std::unique_lock<std::mutex> lock(m);
    auto start = std::chrono::steady_clock::now();
    std::cv_status status = never.wait_for(lock, std::chrono::milliseconds(40));
    auto waited = std::chrono::steady_clock::now() - start;
    bool timed_out = status == std::cv_status::timeout;
    bool long_enough = waited >= std::chrono::milliseconds(40);
    std::printf("wait_for: timeout=%d waited at least 40 ms=%d\n", timed_out ? 1 : 0, long_enough ? 1 : 0);

    bool ok = queue_ok && timed_out && long_enough;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
