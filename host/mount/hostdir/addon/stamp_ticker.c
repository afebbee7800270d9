// stampTicker(cell: DataView, at, baseNs: BigInt): keeps the int64 at byte `at` of `cell` (the
// program's memory) at baseNs + CLOCK_MONOTONIC in ns, the wall clock every thread of the
// program reads (host/platform/wall-clock.js), rewritten about every millisecond by one native
// thread of the process. That int64 is the file system's stamp clock (runtime/fs/core/
// stamp_clock.c): a write reads it with one load instead of calling Date.now(), whose number V8
// allocates in the worker's heap. The int32 at `at` + 8 is the program's `wanted` flag: set by
// stamps, cleared here every CHECK_TICKS ticks; when it stayed clear that long, the int64 is set
// to 0 and this cell is left alone until it is asked for again. Also 0 when the calling
// worker's environment is torn down. Returns whether the cell is ticking: false for a cell
// outside the view or not 8-byte aligned (the address comes from the program), or no thread.
#define _GNU_SOURCE
#include "stamp_ticker.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define TICK_NS 1000000L
#define CHECK_TICKS 128 // ~0.13 s without a stamp: stop

struct ticked_cell {
    struct ticked_cell *next;
    napi_env env;
    napi_ref keep; // the memory stays alive while this environment does
    int64_t *ns; // the cell's wall clock; its `wanted` flag is the int32 after it
    int64_t base_ns;
    bool ticking;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t asked = PTHREAD_COND_INITIALIZER;
static struct ticked_cell *cells; // under lock
static bool thread_running;        // under lock

static int64_t monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static bool any_ticking(void)
{
    for (struct ticked_cell *c = cells; c; c = c->next)
        if (c->ticking)
            return true;
    return false;
}

static void *tick_forever(void *unused)
{
    (void)unused;
    const struct timespec period = {0, TICK_NS};
    pthread_mutex_lock(&lock);
    for (unsigned tick = 1;; tick++) {
        while (!any_ticking())
            pthread_cond_wait(&asked, &lock);
        int64_t now = monotonic_ns();
        bool check = tick % CHECK_TICKS == 0;
        for (struct ticked_cell *c = cells; c; c = c->next) {
            if (!c->ticking)
                continue;
            if (check && __atomic_exchange_n((int32_t *)(c->ns + 1), 0, __ATOMIC_RELAXED) == 0) {
                __atomic_store_n(c->ns, 0, __ATOMIC_RELAXED);
                c->ticking = false;
                continue;
            }
            __atomic_store_n(c->ns, c->base_ns + now, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&lock);
        nanosleep(&period, NULL);
        pthread_mutex_lock(&lock);
    }
    return NULL;
}

// The environment is going away, and with it maybe the memory: stop writing there first.
static void on_teardown(void *arg)
{
    struct ticked_cell *gone = arg;
    pthread_mutex_lock(&lock);
    for (struct ticked_cell **at = &cells; *at; at = &(*at)->next) {
        if (*at == gone) {
            *at = gone->next;
            break;
        }
    }
    __atomic_store_n(gone->ns, 0, __ATOMIC_RELAXED); // other threads fall back to their clock
    pthread_mutex_unlock(&lock);
    free(gone); // (the environment frees its references itself)
}

static napi_value boolean(napi_env env, bool value)
{
    napi_value result;
    napi_get_boolean(env, value, &result);
    return result;
}

// Starts (or restarts) ticking `ns` for this environment; false where no thread could be made.
static bool tick_cell(napi_env env, napi_value view, int64_t *ns, int64_t base_ns)
{
    pthread_mutex_lock(&lock);
    struct ticked_cell *cell = NULL;
    for (struct ticked_cell *c = cells; c && !cell; c = c->next)
        if (c->env == env && c->ns == ns && c->base_ns == base_ns)
            cell = c;
    bool ok = true;
    if (!thread_running) {
        pthread_t thread;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, 64 << 10);
        thread_running = ok = pthread_create(&thread, &attr, tick_forever, NULL) == 0;
        pthread_attr_destroy(&attr);
    }
    if (ok && !cell && (cell = calloc(1, sizeof *cell))) {
        cell->env = env;
        cell->ns = ns;
        cell->base_ns = base_ns;
        if (napi_create_reference(env, view, 1, &cell->keep) != napi_ok ||
            napi_add_env_cleanup_hook(env, on_teardown, cell) != napi_ok) {
            free(cell);
            cell = NULL;
        } else {
            cell->next = cells;
            cells = cell;
        }
    }
    ok = ok && cell;
    if (ok && !cell->ticking) {
        cell->ticking = true;
        __atomic_store_n(cell->ns, base_ns + monotonic_ns(), __ATOMIC_RELAXED);
        pthread_cond_signal(&asked);
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

napi_value js_stamp_ticker(napi_env env, napi_callback_info info)
{
    size_t argc = 3;
    napi_value argv[3];
    bool is_view = false, lossless = false;
    size_t length = 0;
    void *data = NULL;
    uint32_t at;
    int64_t base_ns;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
        napi_is_dataview(env, argv[0], &is_view) != napi_ok || !is_view ||
        napi_get_dataview_info(env, argv[0], &length, &data, NULL, NULL) != napi_ok ||
        napi_get_value_uint32(env, argv[1], &at) != napi_ok ||
        napi_get_value_bigint_int64(env, argv[2], &base_ns, &lossless) != napi_ok || !lossless) {
        napi_throw_type_error(env, NULL, "stampTicker(cell: DataView, at, baseNs: BigInt)");
        return NULL;
    }
    // the program's address: a 16-byte cell inside the view, its int64 aligned
    if (!data || length < 16 || at > length - 16 || ((uintptr_t)data + at) % 8 != 0)
        return boolean(env, false);
    return boolean(env, tick_cell(env, argv[0], (int64_t *)((char *)data + at), base_ns));
}
