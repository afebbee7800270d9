// Exceptions thrown inside the C++ library are caught by the program: std::stoi,
// vector::at and vector::reserve, std::filesystem::file_size, std::future_error,
// std::bad_optional_access. Messages differ between library implementations, so the types
// and error codes are what is printed.
#include <cstdio>
#include <filesystem>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

int main()
{
    int failures = 0;
    auto expect = [&failures](bool ok, const char *what) {
        std::printf("%s %s\n", ok ? "caught" : "MISSED", what);
        failures += !ok;
    };

    bool ok = false;
    try {
        (void)std::stoi("not a number");
    } catch (const std::invalid_argument &) {
        ok = true;
    }
    expect(ok, "std::invalid_argument from stoi(\"not a number\")");

    ok = false;
    try {
        (void)std::stoi("99999999999999999999");
    } catch (const std::out_of_range &) {
        ok = true;
    }
    expect(ok, "std::out_of_range from stoi(\"99999999999999999999\")");

    ok = false;
    std::vector<int> values{1, 2, 3};
    try {
        (void)values.at(3);
    } catch (const std::out_of_range &) {
        ok = true;
    }
    expect(ok, "std::out_of_range from vector::at(3) of 3");

    ok = false;
    try {
        (void)std::filesystem::file_size("/no/such/file");
    } catch (const std::filesystem::filesystem_error &e) {
        ok = e.code() == std::errc::no_such_file_or_directory && e.path1() == "/no/such/file";
    }
    expect(ok, "std::filesystem::filesystem_error (no such file) from file_size");

    ok = false;
    std::promise<int> promise;
    auto future = promise.get_future();
    try {
        (void)promise.get_future();
    } catch (const std::future_error &e) {
        ok = e.code() == std::future_errc::future_already_retrieved;
    }
    expect(ok, "std::future_error (future_already_retrieved) from a second get_future");

    ok = false;
    {
        std::promise<int> abandoned;
        future = abandoned.get_future();
    }
    try {
        (void)future.get();
    } catch (const std::future_error &e) {
        ok = e.code() == std::future_errc::broken_promise;
    }
    expect(ok, "std::future_error (broken_promise) from a promise destroyed unset");

    ok = false;
    try {
        values.reserve(values.max_size() + 1);
    } catch (const std::length_error &) {
        ok = true;
    }
    expect(ok, "std::length_error from vector::reserve(max_size() + 1)");

    ok = false;
    std::optional<int> empty;
    try {
        (void)empty.value();
    } catch (const std::bad_optional_access &) {
        ok = true;
    }
    expect(ok, "std::bad_optional_access from optional::value");

    std::printf("%s\n", failures ? "FAILED" : "all ok");
    return failures ? 1 : 0;
}
