// Symlinks on a mount whose targets leave it (tests/mount.test.js lays the host directory out):
// they resolve in the program's own tree, as a bind mount in a container, never on the host.
// `links_out DIR` walks DIR with std::filesystem (which treated EXDEV as a hard error), then
// stats, reads, creates and chmods through the links. Prints one line per step.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace fs = std::filesystem;

static const char *kind(const fs::file_status &s)
{
    switch (s.type()) {
    case fs::file_type::regular:
        return "file";
    case fs::file_type::directory:
        return "dir";
    case fs::file_type::symlink:
        return "symlink";
    case fs::file_type::not_found:
        return "missing";
    default:
        return "other";
    }
}

static std::string contents(const fs::path &p)
{
    std::ifstream in(p);
    if (!in)
        return std::string("(") + std::strerror(errno) + ")";
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    text.erase(std::remove(text.begin(), text.end(), '\n'), text.end());
    return text;
}

// Every entry below root, sorted: its path, what lstat and stat say.
static void walk(const fs::path &root, fs::directory_options options, const char *title)
{
    std::vector<std::string> lines;
    try {
        for (const auto &e : fs::recursive_directory_iterator(root, options)) {
            std::string line = e.path().lexically_relative(root).string() + ": " + kind(e.symlink_status());
            line += std::string(" -> ") + kind(e.status());
            lines.push_back(line);
        }
    } catch (const fs::filesystem_error &err) {
        lines.push_back(std::string("exception: ") + err.what());
    }
    std::sort(lines.begin(), lines.end());
    std::cout << title << "\n";
    for (const auto &l : lines)
        std::cout << "  " << l << "\n";
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const fs::path dir = argv[1];
    // the program's own tree outside the mount: where the escaping links lead
    fs::create_directories("/outside");
    std::ofstream("/outside/x") << "memory\n";

    walk(dir, fs::directory_options::none, "walk:");
    walk(dir, fs::directory_options::follow_directory_symlink, "walk following directory links:");

    for (const char *name : {"abs-file", "abs-dir", "up", "deep", "passwd", "canary-up", "canary-abs", "canary-far"}) {
        std::error_code ec;
        fs::file_status s = fs::status(dir / name, ec);
        std::cout << name << ": " << kind(s) << ", " << contents(dir / name) << "\n";
    }
    std::cout << "abs-dir/x: " << contents(dir / "abs-dir" / "x") << "\n";
    std::cout << "up/../outside/x: " << contents(dir / "up" / ".." / "outside" / "x") << "\n";
    // a file created and chmod-ed through a link out of the mount is made in the program's tree
    std::ofstream(dir / "abs-dir" / "made") << "made\n";
    std::cout << "made through abs-dir: " << contents("/outside/made") << "\n";
    int rc = chmod((dir / "up" / "made").c_str(), 0600);
    struct stat st;
    stat("/outside/made", &st);
    std::cout << "chmod through up: " << rc << ", mode " << std::oct << (st.st_mode & 07777) << std::dec << "\n";
    return 0;
}
