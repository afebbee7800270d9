// The wall clock in nanoseconds with sub-millisecond ticks, one clock for every thread.
// Node: the process-wide monotonic clock (process.hrtime, the same in every worker) plus one
// offset to the epoch, taken by the host's thread and handed to each worker in its init message
// (useWallClockBase), so that no two threads read different times; Node's `performance` would
// load perf_hooks, ~5 ms of every start and of every worker's boot. Browsers: each worker has
// its own timeOrigin, but timeOrigin + now() is one clock for all of them; timeOrigin is read
// once per worker (this module is evaluated per worker): its getter costs more than now().
const hrtime = globalThis.process?.hrtime?.bigint;
const timeOrigin = hrtime ? 0 : performance.timeOrigin;
let baseNs = null;

/**
 * Node: the offset from the monotonic clock to the epoch, in ns, taken once per process (the
 * thread that calls first waits for Date.now() to tick, under a millisecond, so that the offset
 * is exact to a microsecond rather than to Date.now()'s millisecond). Browsers: null.
 */
export function wallClockBase() {
  if (!hrtime || baseNs !== null) return baseNs;
  const before = Date.now();
  let edge;
  while ((edge = Date.now()) === before) { /* the next millisecond's first microseconds */ }
  baseNs = BigInt(edge) * 1000000n - hrtime();
  return baseNs;
}

/** A worker takes the host thread's offset (wallClockBase) before its first reading. */
export function useWallClockBase(ns) {
  if (hrtime && typeof ns === 'bigint') baseNs = ns;
}

const nowMs = hrtime ? () => Number(wallClockBase() + hrtime()) / 1e6 : () => timeOrigin + performance.now();

export const wallClockNs = hrtime ? () => wallClockBase() + hrtime() : () => BigInt(Math.round((timeOrigin + performance.now()) * 1e6));

// The same clock in milliseconds, coarse, for file timestamps (spindle.fs_clock_ms,
// runtime/fs/core/stamp_clock.c): re-read only when Date.now() has moved, so a reading is at
// most about a millisecond old. Date.now() is several times cheaper than performance.now() in a
// Chromium worker, but it is a different clock that may run ahead, so it only says when to
// re-read. A double, not a BigInt, and returned, not written to memory: no pointer to check.
// The FS keeps the latest stamp any thread took, so a stamp must not be ahead of any worker's
// clock: the reading is set back by more than two workers' readings of one instant differ
// (Chromium coarsens performance.now() to 5 us with jitter: up to 5.1 us apart was measured).
// The runtime makes the same Date.now() check itself before calling this (spindle.date_now_ms),
// so a write calls no JS of ours; the check here serves modules linked before it did.
const WORKER_CLOCKS_APART_MS = 0.1;
let readAtDateMs = NaN;
let readingMs = 0;
export function coarseWallClockMs() {
  const dateMs = Date.now();
  if (dateMs !== readAtDateMs) {
    readAtDateMs = dateMs;
    readingMs = nowMs() - WORKER_CLOCKS_APART_MS;
  }
  return readingMs;
}
