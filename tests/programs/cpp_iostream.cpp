// iostreams from main and from threads: std::cout with manipulators,
// std::endl, std::cerr, std::ostringstream, std::string and containers.
#include <condition_variable>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

int main()
{
    std::cout << "hello from std::cout" << std::endl;
    std::cout << std::setw(8) << 42 << '|' << std::left << std::setw(6) << "ab" << '|' << std::right
              << std::endl;
    std::cout << std::fixed << std::setprecision(3) << 3.14159265 << ' ' << std::scientific << 12345.678
              << std::endl;
    std::cout << std::defaultfloat << std::hex << 255 << ' ' << std::showbase << 255 << std::dec
              << std::noshowbase << ' ' << std::boolalpha << true << std::endl;

    std::map<std::string, int> word_counts;
    std::istringstream words("the cat and the hat and the bat");
    for (std::string word; words >> word;)
        word_counts[word]++;
    for (const auto &[word, count] : word_counts)
        std::cout << word << '=' << count << ' ';
    std::cout << '\n';

    // Threads each format a line into a string; main prints them in order.
    std::vector<std::string> lines(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; i++) {
        threads.emplace_back([i, &lines] {
            std::ostringstream out;
            auto numbers = std::make_unique<std::vector<int>>();
            for (int k = 0; k <= i; k++)
                numbers->push_back(k * k);
            out << "thread " << i << ':';
            for (int n : *numbers)
                out << ' ' << n;
            lines[i] = out.str();
        });
    }
    for (auto &t : threads)
        t.join();
    for (const auto &line : lines)
        std::cout << line << '\n';

    // Threads writing to std::cout directly, one after another.
    std::mutex cout_mutex;
    int turn = 0;
    std::condition_variable turn_changed;
    threads.clear();
    for (int i = 0; i < 3; i++) {
        threads.emplace_back([i, &cout_mutex, &turn, &turn_changed] {
            std::unique_lock<std::mutex> lock(cout_mutex);
            turn_changed.wait(lock, [&] { return turn == i; });
            std::cout << "in order from thread " << i << std::endl;
            turn++;
            turn_changed.notify_all();
        });
    }
    for (auto &t : threads)
        t.join();

    std::cerr << "this line goes to std::cerr" << std::endl;
    std::cout << "done" << std::endl;
    return 0;
}
