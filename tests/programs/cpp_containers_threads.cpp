// Standard containers and strings built, grown and destroyed in several
// threads at once (every allocation goes through operator new/delete and so
// through malloc), with objects handed between threads through a future.
#include <cstdint>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

struct Summary {
    uint64_t vector_sum = 0;
    size_t map_size = 0;
    uint64_t map_key_sum = 0;
    size_t string_length = 0;
    uint32_t string_hash = 2166136261u;
};

std::unique_ptr<std::unordered_map<std::string, std::vector<int>>> build(int seed)
{
    auto table = std::make_unique<std::unordered_map<std::string, std::vector<int>>>();
    for (int i = 0; i < 2000; i++) {
        std::string key = "key-" + std::to_string((i * 7919 + seed) % 1500);
        (*table)[key].push_back(i);
    }
    return table;
}

Summary churn(int seed)
{
    Summary s;
    std::vector<uint64_t> numbers;
    for (int i = 0; i < 50000; i++)
        numbers.push_back(static_cast<uint64_t>(i) * (seed + 1));
    for (uint64_t n : numbers)
        s.vector_sum += n;
    std::map<int, std::string> ordered;
    for (int i = 0; i < 3000; i++)
        ordered[(i * 31 + seed) % 2000] = std::string(static_cast<size_t>(i % 50), 'x');
    s.map_size = ordered.size();
    for (const auto &entry : ordered)
        s.map_key_sum += static_cast<uint64_t>(entry.first);
    std::string text;
    for (int i = 0; i < 5000; i++)
        text += std::to_string(i * seed) + ",";
    s.string_length = text.size();
    for (unsigned char c : text)
        s.string_hash = (s.string_hash ^ c) * 16777619u;
    return s;
}

}  // namespace

int main()
{
    constexpr int kThreads = 4;
    std::vector<std::future<Summary>> futures;
    for (int t = 0; t < kThreads; t++)
        futures.push_back(std::async(std::launch::async, churn, t + 1));
    bool all_match = true;
    for (int t = 0; t < kThreads; t++) {
        Summary got = futures[t].get();
        Summary want = churn(t + 1);  // the same work on one thread
        bool same = got.vector_sum == want.vector_sum && got.map_size == want.map_size &&
                    got.map_key_sum == want.map_key_sum && got.string_length == want.string_length &&
                    got.string_hash == want.string_hash;
        std::printf("thread %d: vector_sum=%llu map_size=%zu string_length=%zu hash=%08x matches=%d\n", t,
                    static_cast<unsigned long long>(got.vector_sum), got.map_size, got.string_length,
                    got.string_hash, same ? 1 : 0);
        all_match = all_match && same;
    }

    // A table built on one thread and destroyed on another.
    std::promise<std::unique_ptr<std::unordered_map<std::string, std::vector<int>>>> handoff;
    auto received = handoff.get_future();
    std::thread producer([&handoff] { handoff.set_value(build(3)); });
    size_t entries = 0, values = 0;
    std::thread consumer([&received, &entries, &values] {
        auto table = received.get();
        entries = table->size();
        for (const auto &entry : *table)
            values += entry.second.size();
        table.reset();  // freed on a thread that did not allocate it
    });
    producer.join();
    consumer.join();
    std::printf("handed-off table: entries=%zu values=%zu\n", entries, values);
    bool ok = all_match && entries == 1500 && values == 2000;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
