// libwasi-emulated-getpid: a process id for code that wants one (-D_WASI_EMULATED_GETPID).
// A Wasm program is one process with no id from its host; every call gives the same
// positive number, which is what programs use getpid for (temporary names, log lines).
#include <unistd.h>

enum { emulated_pid = 42 };

pid_t getpid(void) { return emulated_pid; }
