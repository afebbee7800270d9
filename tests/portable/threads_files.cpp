// The C++ program of tests/portable.test.js: std::thread workers filling vectors (allocation
// from several threads), a std::mutex-guarded total, and a file in the preopened directory
// (argv[1]) written with ofstream and read back with ifstream.
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char **argv)
{
    std::mutex lock;
    long total = 0;
    std::vector<std::thread> workers;
    for (int t = 0; t < 3; t++)
        workers.emplace_back([t, &lock, &total] {
            std::vector<std::string> words;
            for (int i = 0; i < 2000; i++)
                words.push_back(std::to_string(i * (t + 1)));
            long sum = 0;
            for (const auto &w : words)
                sum += static_cast<long>(w.size());
            std::lock_guard<std::mutex> guard(lock);
            total += sum;
        });
    for (auto &w : workers)
        w.join();
    std::cout << "digits: " << total << "\n";
    if (argc > 1) {
        std::string path = std::string(argv[1]) + "/cpp.txt";
        std::ofstream(path) << "written by C++\n";
        std::string line;
        std::ifstream in(path);
        std::getline(in, line);
        std::cout << "read back: " << line << "\n";
    }
    return 0;
}
