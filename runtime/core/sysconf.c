// sysconf with the real core count. wasi-libc answers 1 for _SC_NPROCESSORS_*, which makes
// thread pools (std::thread::hardware_concurrency, OpenMP-style code) use one thread. Linked
// with --wrap=sysconf, so every caller, libc++ included, comes here first.
// Also what libc gets wrong: the memory sizes and MINSIGSTKSZ came back as its internal table
// codes (negative numbers), and OPEN_MAX as -1 though Spindle's fd table has 8192 slots; and
// whether errno is set follows glibc (docs/POSIX.md).
#include <errno.h>
#include <unistd.h>

#include "spindle/fs.h"
#include "spindle/host_imports.h"

long __real_sysconf(int name);

long __wrap_sysconf(int name)
{
    if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) {
        int n = spindle_host_cpu_count();
        return n > 0 ? n : 1;
    }
    const long wasm_pages = 65536; // wasm32 addresses 4 GiB of 64 KiB pages (libc's PAGESIZE)
    switch (name) {
    case _SC_OPEN_MAX:
        return SPINDLE_FS_MAX_FDS;
    case _SC_PHYS_PAGES:
        return wasm_pages;
    // what memory has not grown into yet
    case _SC_AVPHYS_PAGES:
        return wasm_pages - (long)__builtin_wasm_memory_size(0);
    case _SC_MINSIGSTKSZ:
        return 2048; // Linux's MINSIGSTKSZ
    case _SC_SIGSTKSZ:
        return 8192; // Linux's SIGSTKSZ
    // names glibc answers that libc refused with EINVAL: no message queues, Linux's priority limit
    case _SC_MQ_OPEN_MAX:
        return -1; // no limit, errno untouched
    case _SC_MQ_PRIO_MAX:
        return 32768;
    // names glibc refuses (EINVAL), which libc answered as unsupported options
    case _SC_SS_REPL_MAX:
    case _SC_THREAD_ROBUST_PRIO_INHERIT:
    case _SC_THREAD_ROBUST_PRIO_PROTECT:
        errno = EINVAL;
        return -1;
    default:
        break;
    }
    long value = __real_sysconf(name);
    if (value < -1) { // one of libc's internal codes: a name it does not handle
        errno = EINVAL;
        return -1;
    }
    return value;
}
