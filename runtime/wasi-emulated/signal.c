// libwasi-emulated-signal: signal() and raise() inside one process, for code written for POSIX
// (compile with -D_WASI_EMULATED_SIGNAL). Nothing outside the program can send a signal, so a
// handler runs only when the program raises its signal itself.
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*handler_fn)(int);

// Handlers are set and read by any thread: atomics keep a read whole without a lock.
static _Atomic(handler_fn) handlers[_NSIG];

// SIG_IGN and SIG_ERR are these functions' addresses in wasi-libc's <signal.h>.
void __SIG_IGN(int sig) { (void)sig; }
void __SIG_ERR(int sig) { (void)sig; }

static int valid_signal(int sig) { return sig > 0 && sig < _NSIG; }

static const char *const signal_names[] = {
    [SIGHUP] = "Hangup",
    [SIGINT] = "Interrupt",
    [SIGQUIT] = "Quit",
    [SIGILL] = "Illegal instruction",
    [SIGTRAP] = "Trace/breakpoint trap",
    [SIGABRT] = "Aborted",
    [SIGBUS] = "Bus error",
    [SIGFPE] = "Arithmetic exception",
    [SIGKILL] = "Killed",
    [SIGUSR1] = "User defined signal 1",
    [SIGSEGV] = "Segmentation fault",
    [SIGUSR2] = "User defined signal 2",
    [SIGPIPE] = "Broken pipe",
    [SIGALRM] = "Alarm clock",
    [SIGTERM] = "Terminated",
    [SIGSTKFLT] = "Stack fault",
    [SIGCHLD] = "Child process status",
    [SIGCONT] = "Continued",
    [SIGSTOP] = "Stopped (signal)",
    [SIGTSTP] = "Stopped",
    [SIGTTIN] = "Stopped (tty input)",
    [SIGTTOU] = "Stopped (tty output)",
    [SIGURG] = "Urgent I/O condition",
    [SIGXCPU] = "CPU time limit exceeded",
    [SIGXFSZ] = "File size limit exceeded",
    [SIGVTALRM] = "Virtual timer expired",
    [SIGPROF] = "Profiling timer expired",
    [SIGWINCH] = "Window changed",
    [SIGIO] = "I/O possible",
    [SIGPWR] = "Power failure",
    [SIGSYS] = "Bad system call",
};

char *strsignal(int sig)
{
    if (sig > 0 && sig < (int)(sizeof signal_names / sizeof *signal_names) && signal_names[sig]) {
        return (char *)signal_names[sig];
    }
    return "Unknown signal";
}

void psignal(int sig, const char *prefix)
{
    if (prefix && *prefix)
        fprintf(stderr, "%s: %s\n", prefix, strsignal(sig));
    else
        fprintf(stderr, "%s\n", strsignal(sig));
}

handler_fn signal(int sig, handler_fn handler)
{
  // SIGKILL and SIGSTOP cannot be caught or ignored, as on POSIX.
    if (!valid_signal(sig) || sig == SIGKILL || sig == SIGSTOP || handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    return atomic_exchange(&handlers[sig], handler);
}

handler_fn bsd_signal(int sig, handler_fn handler) { return signal(sig, handler); }

// What SIG_DFL does: ignore the signals POSIX ignores by default (and the stop signals: there
// is no job control to stop for); end the program for the others, with the exit status a
// shell reports for a process killed by that signal.
static void default_action(int sig)
{
    switch (sig) {
    case SIGCHLD:
    case SIGCONT:
    case SIGURG:
    case SIGWINCH:
    case SIGSTOP:
    case SIGTSTP:
    case SIGTTIN:
    case SIGTTOU:
        return;
    case SIGABRT:
        abort();
    default:
        fprintf(stderr, "%s\n", strsignal(sig));
        _Exit(128 + sig);
    }
}

int raise(int sig)
{
    if (sig == 0)
        return 0; // the null signal: nothing is delivered
    if (!valid_signal(sig)) {
        errno = EINVAL;
        return -1;
    }
    handler_fn handler = atomic_load(&handlers[sig]);
    if (handler == SIG_IGN)
        return 0;
    if (handler == SIG_DFL)
        default_action(sig);
    else
        handler(sig);
    return 0;
}
