// sysconf with the real core count. wasi-libc answers 1 for _SC_NPROCESSORS_*, which makes
// thread pools (std::thread::hardware_concurrency, OpenMP-style code) use one thread. Linked
// with --wrap=sysconf, so every caller, libc++ included, comes here first.
#include <unistd.h>

__attribute__((import_module("spindle"), import_name("cpu_count"))) int spindle_host_cpu_count(void);

long __real_sysconf(int name);

long __wrap_sysconf(int name) {
  if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) {
    int n = spindle_host_cpu_count();
    return n > 0 ? n : 1;
  }
  return __real_sysconf(name);
}
