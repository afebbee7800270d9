// The mailbox through which threads reach the JS filesystem on the host's main thread.
// One SharedArrayBuffer: a header, then one mailbox per worker (a worker runs one thread at a
// time). A caller writes its call and arguments into its mailbox, marks it PENDING, rings the
// doorbell and Atomics.waits on its mailbox; the host thread runs the call (wasm memory is
// shared, so it reads and writes the caller's buffers directly), stores the result, marks the
// mailbox DONE and notifies. No message, no copy of the data.
import { FILE_CALLS, isStdioCall } from './wasi-calls.js';

const HEADER_INTS = 8;
export const CH = {
  DOORBELL: 0,       // +1 per request; the browser's server waits on it
  MAIN_WAIT_ADDR: 1, // Node: 1 + byte address in wasm memory the host thread waits on; 0 if not
  HIGH_WATER: 2,     // mailboxes in use (highest index + 1)
  SPAWN: 3,          // +1 when a thread needs a new worker started by the host thread
};
const MAILBOX_BYTES = 128;
const MB = { STATE: 0, CALL: 1, RESULT: 2 }; // ints; arguments are i64 from byte 16
const ARGS_AT = 16;
const STATE = { IDLE: 0, PENDING: 1, DONE: 2 };

const callNames = Object.keys(FILE_CALLS);
const callIds = new Map(callNames.map((name, i) => [name, i]));

export function createChannel(mailboxes) {
  return new SharedArrayBuffer(HEADER_INTS * 4 + mailboxes * MAILBOX_BYTES);
}

/** Wakes the host thread if it is in jsfs_host_thread_wait (Node), so it serves at once. */
export function ringHostThread(ch, memory) {
  const addr = Atomics.load(ch, CH.MAIN_WAIT_ADDR);
  // Every waiter on that address wakes (a spurious wake-up, which the C callers loop on):
  // waking only one could pick another thread and leave the host thread asleep.
  if (addr !== 0) Atomics.notify(new Int32Array(memory.buffer), (addr - 1) >>> 2);
}

/**
 * The calling side, for a thread on a worker: { name: (...args) => result } for every file
 * call, each run on the host thread and waited for.
 */
export function proxyClient(channel, mailbox, memory) {
  const ch = new Int32Array(channel);
  const base = HEADER_INTS * 4 + mailbox * MAILBOX_BYTES;
  const box = new Int32Array(channel, base, 4);
  const args = new BigInt64Array(channel, base + ARGS_AT, 12);
  for (let seen = Atomics.load(ch, CH.HIGH_WATER); seen < mailbox + 1;) {
    const prev = Atomics.compareExchange(ch, CH.HIGH_WATER, seen, mailbox + 1);
    if (prev === seen) break;
    seen = prev;
  }
  function call(id, list) {
    for (let i = 0; i < list.length; i++) args[i] = BigInt(list[i]);
    box[MB.CALL] = id;
    Atomics.store(box, MB.STATE, STATE.PENDING);
    Atomics.add(ch, CH.DOORBELL, 1);
    Atomics.notify(ch, CH.DOORBELL);
    ringHostThread(ch, memory);
    while (Atomics.load(box, MB.STATE) === STATE.PENDING) Atomics.wait(box, MB.STATE, STATE.PENDING);
    const result = box[MB.RESULT];
    Atomics.store(box, MB.STATE, STATE.IDLE);
    return result;
  }
  return Object.fromEntries(callNames.map((name) => {
    const id = callIds.get(name);
    return [name, (...list) => call(id, list)];
  }));
}

/**
 * The serving side, on the host's main thread: serve() runs every pending call once and
 * returns how many it ran. `calls` are the file calls bound to the JS filesystem.
 */
export function proxyServer(channel, calls) {
  const ch = new Int32Array(channel);
  const mailboxes = (channel.byteLength - HEADER_INTS * 4) / MAILBOX_BYTES;
  const boxes = []; const argViews = [];
  for (let m = 0; m < mailboxes; m++) {
    const base = HEADER_INTS * 4 + m * MAILBOX_BYTES;
    boxes.push(null);
    argViews.push(base);
  }
  const view = (m) => {
    if (!boxes[m]) boxes[m] = [new Int32Array(channel, argViews[m], 4), new BigInt64Array(channel, argViews[m] + ARGS_AT, 12)];
    return boxes[m];
  };
  const fns = callNames.map((name) => calls[name]);
  const arity = fns.map((fn) => fn.length);
  const isI64 = callNames.map((name, id) => Array.from({ length: arity[id] }, (_, i) => FILE_CALLS[name].includes(i)));
  let seenDoorbell = 0;

  function runOne(box, args) {
    const id = box[MB.CALL];
    const fn = fns[id];
    const list = new Array(arity[id]);
    for (let i = 0; i < list.length; i++) list[i] = isI64[id][i] ? args[i] : Number(args[i]);
    let result;
    try {
      result = fn(...list);
    } catch (err) {
      result = 29; // EIO: a bug in the JS FS must not hang the calling thread
      console.error(`spindle: JS FS: ${callNames[id]} failed: ${err?.stack || err}`);
    }
    box[MB.RESULT] = result;
    Atomics.store(box, MB.STATE, STATE.DONE);
    Atomics.notify(box, MB.STATE);
  }

  return {
    /** true if a request may be waiting (cheap: one atomic load). */
    pending: () => Atomics.load(ch, CH.DOORBELL) !== seenDoorbell,
    serve() {
      const doorbell = Atomics.load(ch, CH.DOORBELL);
      if (doorbell === seenDoorbell) return 0;
      // Read before scanning: a request rung after this load makes the next serve() scan again.
      seenDoorbell = doorbell;
      let served = 0;
      const used = Atomics.load(ch, CH.HIGH_WATER);
      for (let m = 0; m < used; m++) {
        const [box, args] = view(m);
        if (Atomics.load(box, MB.STATE) === STATE.PENDING) {
          runOne(box, args);
          served++;
        }
      }
      return served;
    },
    /** Browser: serves from the event loop, never blocking the page. Stops when stop() is true. */
    async serveForever(stop) {
      while (!stop()) {
        const doorbell = Atomics.load(ch, CH.DOORBELL);
        this.serve();
        const waited = Atomics.waitAsync(ch, CH.DOORBELL, doorbell);
        if (waited.async) await waited.value;
      }
    },
  };
}

/**
 * A worker thread's WASI imports with --fs=js: file calls go through the mailbox, except those
 * on fds 0-2 (the host's stdio), which the thread answers itself as usual.
 */
export function proxiedWasi(channel, mailbox, memory, stdio) {
  const remote = proxyClient(channel, mailbox, memory);
  const calls = {};
  for (const name of callNames) {
    calls[name] = (...list) => (isStdioCall(name, list) ? stdio[name](...list) : remote[name](...list));
  }
  return new Proxy(calls, { get: (target, name) => (name in target ? target[name] : stdio[name]) });
}
