/* The clock that file timestamps read: coarse, like Linux's tick-based file times, never ahead
 * of a later clock_gettime(CLOCK_REALTIME) (docs/FILESYSTEM.md, "Timestamps").
 *
 * In wasm, first a cell in memory that the host keeps at the wall clock (spindle.stamp_ticker:
 * a native thread in Node, the page's own thread in a browser), rewritten about every
 * millisecond from outside the program. Reading it is one load: no call out of wasm, and nothing
 * allocated in the worker's JavaScript heap, whose first collection would otherwise land in the
 * middle of a thread's work (docs/PERFORMANCE.md). The host stops ticking when no stamp asked for
 * the cell for a while (`wanted` stayed clear) and sets it to 0; so does a page that is hidden,
 * whose timers the browser slows down.
 *
 * While the cell is 0: the import spindle.fs_clock_ms (host/platform/wall-clock.js), the same
 * clock in milliseconds as a double, which each thread re-reads only when spindle.date_now_ms
 * (the host's Date.now itself, an engine function: no JavaScript of ours to compile) has moved;
 * and now and then a request that the host start ticking.
 *
 * Natively (the core's tests) and in a --host=wasi module (compiled with SPINDLE_PORTABLE) it
 * is clock_gettime itself. */
#include "fs_core.h"

#include <time.h>

#include "../../include/spindle/host_imports.h"

#if defined(__wasm__) && !defined(SPINDLE_PORTABLE)
#include <stdatomic.h>

/* The host's view of it: ns at byte 0 (int64), wanted at byte 8 (int32); 16 bytes, aligned. */
struct stamp_clock_cell {
    _Atomic int64_t ns;      /* the wall clock at the host's last tick; 0: not ticking */
    _Atomic int32_t wanted;  /* set by a stamp, cleared by the host now and then */
    int32_t unused;
};
static _Alignas(16) struct stamp_clock_cell cell;

#define ASK_EVERY_MS 100.0 /* how often a thread asks again for a ticker that stopped */
static _Atomic int host_cannot_tick;

static _Thread_local double read_at_date_ms = __builtin_nan(""); /* none yet: NaN equals nothing */
static _Thread_local double reading_ms;
static _Thread_local double asked_at_date_ms = -1e300;

static void ask_for_ticker(double date_ms)
{
    if (atomic_load_explicit(&host_cannot_tick, memory_order_relaxed) ||
        !(date_ms - asked_at_date_ms >= ASK_EVERY_MS))
        return;
    asked_at_date_ms = date_ms;
    atomic_store_explicit(&cell.wanted, 1, memory_order_relaxed);
    if (spindle_host_stamp_ticker(&cell) == 0)
        atomic_store_explicit(&host_cannot_tick, 1, memory_order_relaxed);
}

int64_t stamp_clock_ns(void)
{
    int64_t ticked = atomic_load_explicit(&cell.ns, memory_order_relaxed);
    if (ticked != 0) {
        /* a store only when the host has cleared it: the line stays shared between threads */
        if (!atomic_load_explicit(&cell.wanted, memory_order_relaxed))
            atomic_store_explicit(&cell.wanted, 1, memory_order_relaxed);
        return ticked;
    }
    double date_ms = spindle_host_date_now_ms();
    if (date_ms != read_at_date_ms) {
        read_at_date_ms = date_ms;
        reading_ms = spindle_host_fs_clock_ms();
        ask_for_ticker(date_ms);
    }
    /* Truncated: a later clock_gettime rounds a later reading, so it is never behind this. */
    return (int64_t)(reading_ms * 1e6);
}

/* Only the host's cell can lag: a thread that reads the clock itself re-reads it within a
 * millisecond. The cell lags when the host's ticker does not run (a native thread starved on a
 * loaded machine, a page's busy thread), and nothing in the program can see that but a time. */
bool stamp_clock_lags(int64_t seen_ns)
{
    int64_t ticked = atomic_load_explicit(&cell.ns, memory_order_relaxed);
    return ticked != 0 && seen_ns - ticked > STAMP_LAG_MAX_NS;
}
#else
int64_t stamp_clock_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

bool stamp_clock_lags(int64_t seen_ns)
{
    (void)seen_ns; /* every stamp reads the clock itself */
    return false;
}
#endif
