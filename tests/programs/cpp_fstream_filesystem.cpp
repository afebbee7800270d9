// std::fstream and std::filesystem on the file system the module sees (Spindle's, by default):
// write, append and read back, directories, listing, sizes, rename and recursive removal.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <chrono>
#include <vector>

namespace fs = std::filesystem;

int main()
{
    fs::path base =
        fs::temp_directory_path() /
        ("spindle-cpp-fs-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::error_code ec;
    fs::create_directories(base / "a" / "b", ec);
    std::cout << "create_directories: " << (ec ? ec.message() : "ok") << "\n";
    {
        std::ofstream out(base / "a" / "notes.txt");
        for (int i = 0; i < 100; i++)
            out << "line " << i << "\n";
    }
    {
        std::ofstream out(base / "a" / "notes.txt", std::ios::app);
        out << "appended\n";
    }
    std::ifstream in(base / "a" / "notes.txt");
    std::string line, last;
    int lines = 0;
    while (std::getline(in, line)) {
        lines++;
        last = line;
    }
    std::cout << "lines=" << lines << " last=" << last << "\n";
    std::cout << "file_size=" << fs::file_size(base / "a" / "notes.txt") << "\n";
    fs::rename(base / "a" / "notes.txt", base / "a" / "b" / "moved.txt");
    std::ofstream(base / "a" / "b" / "empty.bin").close();
    std::vector<std::string> names;
    for (auto &entry : fs::recursive_directory_iterator(base)) {
        names.push_back(fs::relative(entry.path(), base).string() + (entry.is_directory() ? "/" : ""));
    }
    std::sort(names.begin(), names.end());
    for (auto &n : names)
        std::cout << "  " << n << "\n";
    std::cout << "exists old name: " << fs::exists(base / "a" / "notes.txt") << "\n";
    std::cout << "removed: " << fs::remove_all(base) << "\n";
    std::cout << "exists after: " << fs::exists(base) << "\n";
    return 0;
}
