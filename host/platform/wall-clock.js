// The wall clock in nanoseconds with sub-millisecond ticks, for every thread. Each worker has
// its own timeOrigin, but timeOrigin + now() is one clock for all of them. timeOrigin is read
// once per worker (this module is evaluated per worker): its getter costs more than now().
const { timeOrigin } = performance;

export const wallClockNs = () => BigInt(Math.round((timeOrigin + performance.now()) * 1e6));

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
    readingMs = timeOrigin + performance.now() - WORKER_CLOCKS_APART_MS;
  }
  return readingMs;
}
