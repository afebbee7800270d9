// The wall clock in nanoseconds with sub-millisecond ticks, for every thread. Each worker has
// its own timeOrigin, but timeOrigin + now() is one clock for all of them. timeOrigin is read
// once per worker (this module is evaluated per worker): its getter costs more than now().
const { timeOrigin } = performance;

export const wallClockNs = () => BigInt(Math.round((timeOrigin + performance.now()) * 1e6));
