// The file system's stamp clock kept in the program's memory by the thread that made the
// program, where that thread is free while the program runs: a browser page's (C code never
// runs there), and Node's host thread where the addon's native ticker is missing and the C main
// runs on a worker (a package install: host/platform/node.js). A thread's worker asks for it
// with a 'stamp-ticker' report; the cell is the runtime's (runtime/fs/core/stamp_clock.c): the
// wall clock in ns at byte `at` (int64), the program's `wanted` flag at `at` + 8 (int32).
//
// Browsers run a repeated timer every 4 ms at best once it has run five times (Chromium: every 1
// ms before that; Node every 1 ms), so a stamp is up to ~4 ms old (Linux's tick is 1-10 ms), or
// as old as the longest task the host's thread runs meanwhile.
// A hidden page's timers slow to once a second or less: it stops ticking and sets the cell to 0,
// and the threads read the clock themselves until it is shown again and they ask again.
import { stampReadingMs } from '../platform/wall-clock.js';

const TICK_MS = 1;
const CHECK_MS = 128; // this long without a stamp (`wanted` stayed clear): stop

/** { request(at), stop() } for the program whose memory is `memory`. */
export function stampTicker(memory) {
  let timer = null;
  let cell = null; // { ns: BigInt64Array, wanted: Int32Array } once a valid address came
  let checkedAt = 0;
  const hidden = () => globalThis.document?.hidden === true;
  const write = () => Atomics.store(cell.ns, 0, BigInt(Math.trunc(stampReadingMs() * 1e6)));
  function tick() {
    const now = performance.now();
    if (now - checkedAt >= CHECK_MS) {
      checkedAt = now;
      if (Atomics.exchange(cell.wanted, 0, 0) === 0) return stop();
    }
    return write();
  }
  const onVisibility = () => { if (hidden()) stop(); }; // (a hidden page's timer slows down)
  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    Atomics.store(cell.ns, 0, 0n); // the threads read the clock themselves again
    globalThis.document?.removeEventListener('visibilitychange', onVisibility);
  }
  function request(at) {
    if (timer !== null || hidden()) return;
    // the program's address: a 16-byte cell inside its memory, aligned
    if (!Number.isInteger(at) || at % 16 !== 0 || at < 0 || at + 16 > memory.buffer.byteLength) return;
    cell = { ns: new BigInt64Array(memory.buffer, at, 1), wanted: new Int32Array(memory.buffer, at + 8, 1) };
    checkedAt = performance.now();
    write();
    timer = setInterval(tick, TICK_MS);
    timer.unref?.(); // (Node: a timer of ours never keeps the process)
    globalThis.document?.addEventListener('visibilitychange', onVisibility);
  }
  return { request, stop };
}
