// sched_yield where the host cannot give up the CPU (browsers, Node without the mount addon):
// every SLEEP_EVERY-th call of a thread sleeps for the shortest time Atomics.wait takes, which
// the OS rounds up to its timer slack (~50-70 us on Linux). A thread that spins and yields
// while the lock holder waits for a core then leaves that core most of the time, and a thread
// that yields with free cores pays the sleep once in SLEEP_EVERY calls (~1 us a call); a
// sleep at every call would cost that thread ~70 us a call (docs/HOST.md, "Limits and what
// threads cost").
const SLEEP_EVERY = 64;
const SHORTEST_WAIT_MS = 0.001;

/** A yield function for one thread (its count of calls is its own). */
export function sleepyYield(every = SLEEP_EVERY) {
  const cell = new Int32Array(new SharedArrayBuffer(4)); // never notified: the wait times out
  let calls = 0;
  return () => {
    calls += 1;
    if (calls % every === 0) Atomics.wait(cell, 0, 0, SHORTEST_WAIT_MS);
  };
}
