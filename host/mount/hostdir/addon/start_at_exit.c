// startAtExit(argv): starts the program at absolute path argv[0] with arguments argv when this process ends,
// however it ends short of a signal: Node's own exit (an atexit handler), or this addon's
// `exit` and vanish alarm, which end it from any thread with _exit (a thread's exit() while main
// is in wasm). `spindle run` sets the maker of a module's TurboFan code here
// (cli/common/turbofan-maker.js) when a run finds none: it is made for the next run whichever
// thread ends this one, and this process spends no time on it while it runs (no node:child_process,
// no fork while the program runs). The command starts detached, in a session of its own, with
// stdin, stdout and stderr on /dev/null and no other fd of this process: it must hold no pipe of
// the caller's open. A later call replaces the command. 0, or -errno.
#define _GNU_SOURCE
#include "start_at_exit.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

enum { MOST_ARGS = 256, MOST_ARG_BYTES = 65536 };

static char **command;  // NULL-terminated, owned; published by `armed`
static atomic_int armed; // 1 while `command` waits to be started
static pthread_mutex_t setting = PTHREAD_MUTEX_INITIALIZER;
static int atexit_registered;

static void free_command(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

// Every fd from 3 up closes in the command (the process ends anyway).
static void close_on_exec_from_3(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return;
#endif
    long most = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (most > 0 && most < 65536 ? most : 65536); fd++)
        fcntl((int)fd, F_SETFD, FD_CLOEXEC);
}

void start_at_exit_now(void)
{
    if (!atomic_exchange_explicit(&armed, 0, memory_order_acquire))
        return;
    close_on_exec_from_3();
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&files) != 0)
        return;
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&files);
        return;
    }
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    posix_spawn(&pid, command[0], &files, &attr, command, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&files);
}

static void start_at_normal_exit(void) { start_at_exit_now(); }

// A JavaScript string as a new C string, or NULL (not a string, too long, no memory).
static char *c_string(napi_env env, napi_value value)
{
    size_t length;
    if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok || length >= MOST_ARG_BYTES)
        return NULL;
    char *s = malloc(length + 1);
    if (s && napi_get_value_string_utf8(env, value, s, length + 1, &length) != napi_ok) {
        free(s);
        return NULL;
    }
    if (s && strlen(s) != length) { // a NUL inside: not what was asked for
        free(s);
        return NULL;
    }
    return s;
}

napi_value js_start_at_exit(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value argv[1], result;
    uint32_t count = 0;
    bool is_array = false;
    int err = 0;
    char **next = NULL;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
        napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array ||
        napi_get_array_length(env, argv[0], &count) != napi_ok || count == 0 || count > MOST_ARGS) {
        err = EINVAL;
        goto done;
    }
    next = calloc(count + 1, sizeof *next);
    if (!next) {
        err = ENOMEM;
        goto done;
    }
    for (uint32_t i = 0; i < count; i++) {
        napi_value arg;
        if (napi_get_element(env, argv[0], i, &arg) != napi_ok || !(next[i] = c_string(env, arg))) {
            err = EINVAL;
            goto done;
        }
    }
    if (next[0][0] != '/') {
        err = EINVAL;
        goto done;
    }
    pthread_mutex_lock(&setting);
    atomic_store_explicit(&armed, 0,
                          memory_order_relaxed); // (a command being replaced is not started meanwhile)
    free_command(command);
    command = next;
    next = NULL;
    if (!atexit_registered)
        atexit_registered = atexit(start_at_normal_exit) == 0;
    atomic_store_explicit(&armed, 1, memory_order_release);
    pthread_mutex_unlock(&setting);
done:
    free_command(next);
    napi_create_int32(env, -err, &result);
    return result;
}
