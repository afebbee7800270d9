// Mailboxes between program threads and I/O workers (docs/MOUNTS.md section 3): one ring of
// 4096 request slots per I/O worker in a SharedArrayBuffer. A calling thread stores the address
// of its request (in linear memory) in the next slot and waits on the request's `state` word; the
// I/O worker takes slots in order, serves each request, stores state = 1 and notifies.
export const SLOTS = 4096;
// Node 20's Atomics.waitAsync in a worker is not woken by Atomics.notify from another thread
// (notify counts 0 waiters), so Node I/O workers block in Atomics.wait between requests.
const isNode = typeof process !== 'undefined' && Boolean(process.versions?.node);

/** Coordinator: mailboxes for n I/O workers (structured-cloneable). */
export function createMailboxes(n) {
  return { sab: new SharedArrayBuffer(n * SLOTS * 4), counters: new SharedArrayBuffer(Math.max(n, 1) * 4), n };
}

function ring(mailboxes, w) {
  return new Int32Array(mailboxes.sab, w * SLOTS * 4, SLOTS);
}

/** Calling thread: hands `request` to I/O worker w and blocks until it is answered. */
export function submit(mailboxes, w, memory, request) {
  const slots = ring(mailboxes, w);
  const i = Atomics.add(new Int32Array(mailboxes.counters), w, 1) & (SLOTS - 1);
  Atomics.store(slots, i, request);
  Atomics.notify(slots, i, 1);
  const mem = new Int32Array(memory.buffer);
  const at = request >>> 2;
  while (Atomics.load(mem, at) === 0) Atomics.wait(mem, at, 0);
}

/**
 * I/O worker w: serves its ring forever, one request at a time, in order.
 * handle(view, request) may be async; it writes result and outputs, not state.
 */
export async function serve(mailboxes, w, memory, handle) {
  const slots = ring(mailboxes, w);
  let head = 0;
  for (;;) {
    let request;
    while ((request = Atomics.load(slots, head)) === 0) {
      if (typeof Atomics.waitAsync === 'function' && !isNode) {
        const r = Atomics.waitAsync(slots, head, 0);
        if (r.async) await r.value;
      } else {
        Atomics.wait(slots, head, 0);
      }
    }
    Atomics.store(slots, head, 0);
    head = (head + 1) & (SLOTS - 1);
    const view = new DataView(memory.buffer);
    try {
      await handle(view, request);
    } catch {
      new DataView(memory.buffer).setBigInt64(request + 16, -5n, true); // EIO
    }
    const mem = new Int32Array(memory.buffer);
    Atomics.store(mem, request >>> 2, 1);
    Atomics.notify(mem, request >>> 2);
  }
}
