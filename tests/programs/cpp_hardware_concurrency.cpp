// sysconf(_SC_NPROCESSORS_ONLN) is at least 1 and agrees with
// std::thread::hardware_concurrency. The count itself is not printed: it
// differs between machines and hosts.
#include <cstdio>
#include <thread>
#include <unistd.h>

int main()
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    long configured = sysconf(_SC_NPROCESSORS_CONF);
    unsigned hardware = std::thread::hardware_concurrency();
    std::printf("online >= 1: %d\n", online >= 1 ? 1 : 0);
    std::printf("configured >= online: %d\n", configured >= online ? 1 : 0);
    std::printf("hardware_concurrency equals online: %d\n", static_cast<long>(hardware) == online ? 1 : 0);
    std::fprintf(stderr, "online=%ld configured=%ld hardware_concurrency=%u\n", online, configured, hardware);
    bool ok = online >= 1 && configured >= online && static_cast<long>(hardware) == online;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
