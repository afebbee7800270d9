// The wall clock in nanoseconds with sub-millisecond ticks, one clock for every thread.
// Node, where the platform has the epoch's offset (host/platform/node.js's epochOffsetNs, from
// the addon): the process-wide monotonic clock (process.hrtime, the same in every worker) plus
// that offset, taken by the host's thread and handed to each worker in its init message
// (useWallClockBase), so that no two threads read different times. Elsewhere, and in Node
// without it: each worker has its own timeOrigin, but timeOrigin + now() is one clock for all
// of them, read once per worker (this module is evaluated per worker; the getter costs more than
// now()), and in Node loading `performance` costs perf_hooks, ~5 ms of a start and of a worker's
// boot: so it is read only where there is no offset.
const hrtime = globalThis.process?.hrtime?.bigint;
let baseNs = null;
let timeOrigin;

/** Every reading of this thread from now on is process.hrtime + `ns` (a BigInt; null: timeOrigin + now()). */
export function useWallClockBase(ns) {
  if (hrtime && typeof ns === 'bigint') baseNs = ns;
}

/** The `ns` this thread's readings add to process.hrtime, or null (timeOrigin + now()). */
export const wallClockBaseNs = () => baseNs;

function performanceMs() {
  timeOrigin ??= performance.timeOrigin;
  return timeOrigin + performance.now();
}

const nowMs = () => (baseNs !== null ? Number(baseNs + hrtime()) / 1e6 : performanceMs());

export const wallClockNs = () => (baseNs !== null ? baseNs + hrtime() : BigInt(Math.round(performanceMs() * 1e6)));

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
    readingMs = stampReadingMs();
  }
  return readingMs;
}

/** A reading of the clock for a file stamp, set back so that it is behind every worker's clock. */
export const stampReadingMs = () => nowMs() - WORKER_CLOCKS_APART_MS;
