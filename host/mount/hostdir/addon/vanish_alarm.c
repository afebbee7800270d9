// exitIfVanished(fate, at, running, stderrFd, line), called by a thread's worker of a program whose
// C main runs on Node's main thread (host/program/own-end.js): when this worker's environment
// is torn down (process.exit in it, an out-of-memory end, a terminate) while the int32 at byte
// `at` of the DataView `fate` (the program's shared control block) still reads `running`, it
// writes `line` to stderrFd and ends the whole process with status 134. Nothing else would
// notice: the main thread hears a worker's end from its event loop, which does not run while the
// C main is in wasm, and a thread joining this worker's thread would wait for good. It replaces,
// for each worker that got this far, the watcher worker of host/threads/lifelines.js, whose own
// boot took a core from the program's threads (docs/HOST.md, "Tenth pass").
#define _GNU_SOURCE
#include "start_at_exit.h"
#include "vanish_alarm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct alarm {
    napi_ref keep; // the control block stays alive while this worker does
    const int32_t *fate;
    int32_t running;
    int fd;
    size_t length;
    char line[];
};

static void on_teardown(void *arg)
{
    struct alarm *a = arg;
    if (__atomic_load_n(a->fate, __ATOMIC_SEQ_CST) == a->running) {
        for (size_t done = 0; done < a->length;) {
            ssize_t n = write(a->fd, a->line + done, a->length - done);
            if (n <= 0)
                break;
            done += (size_t)n;
        }
        start_at_exit_now();
        _exit(134);
    }
    free(a); // (the environment frees its references itself)
}

static napi_value refuse(napi_env env)
{
    napi_throw_type_error(env, NULL, "exitIfVanished(fate: DataView, at, running, stderrFd, line: string)");
    return NULL;
}

napi_value js_exit_if_vanished(napi_env env, napi_callback_info info)
{
    size_t argc = 5;
    napi_value argv[5];
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5)
        return refuse(env);
    bool is_view = false;
    size_t view_length = 0;
    void *data = NULL;
    int32_t at, running, fd;
    size_t length = 0;
    if (napi_is_dataview(env, argv[0], &is_view) != napi_ok || !is_view ||
        napi_get_dataview_info(env, argv[0], &view_length, &data, NULL, NULL) != napi_ok ||
        napi_get_value_int32(env, argv[1], &at) != napi_ok ||
        napi_get_value_int32(env, argv[2], &running) != napi_ok ||
        napi_get_value_int32(env, argv[3], &fd) != napi_ok ||
        napi_get_value_string_utf8(env, argv[4], NULL, 0, &length) != napi_ok)
        return refuse(env);
    // an aligned int32 inside the view, a real fd, a line of sane length
    if (at < 0 || at % 4 != 0 || (size_t)at + 4 > view_length || ((uintptr_t)data + (size_t)at) % 4 != 0 ||
        fd < 0 || length > 4096)
        return refuse(env);
    struct alarm *a = malloc(sizeof *a + length + 1);
    if (!a) {
        napi_throw_error(env, NULL, "exitIfVanished: out of memory");
        return NULL;
    }
    a->fate = (const int32_t *)((char *)data + at);
    a->running = running;
    a->fd = fd;
    napi_get_value_string_utf8(env, argv[4], a->line, length + 1, &a->length);
    if (napi_create_reference(env, argv[0], 1, &a->keep) != napi_ok ||
        napi_add_env_cleanup_hook(env, on_teardown, a) != napi_ok) {
        free(a);
        napi_throw_error(env, NULL, "exitIfVanished: could not register");
        return NULL;
    }
    return NULL;
}
