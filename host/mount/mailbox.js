// Mailboxes between program threads and I/O workers (docs/MOUNTS.md section 3): one ring of
// 4096 request slots per I/O worker in a SharedArrayBuffer. A calling thread stores the address
// of its request (in linear memory) in the next slot and waits on the request's `state` word; the
// I/O worker takes slots in order, serves each request, stores state = 1 and notifies.
// This file is the only implementation of the ring: every backend with I/O workers (opfs.js,
// hostdir.js with ioWorkers) submits and serves through it.
//
// A dead I/O worker (docs/MOUNTS.md "When an I/O worker dies"): failWorker() marks its ring
// failed and answers EIO to every request waiting in it or being served by it; submit() answers
// EIO at once on a failed ring, and a caller whose request was lost in between (the worker
// killed while answering) finds out within FAILED_CHECK_MS. Never a hang.
import { ERRNO } from '../abi/linux.js';
import { REQ, setResult } from '../abi/mount-request.js';
import { isNode } from '../platform/current.js';

export const SLOTS = 4096;
const EIO = ERRNO.EIO;
const ALIVE = 0;
const FAILING = 1;
const FAILED = 2;
const FAILED_CHECK_MS = 200;

/**
 * Coordinator: mailboxes for n I/O workers (structured-cloneable). sab: the rings; counters: one
 * submit counter per worker; status: per worker its state (ALIVE, FAILING, FAILED) at [w] and
 * the request it is serving at [n + w] (0 = none).
 */
export function createMailboxes(n) {
  return {
    sab: new SharedArrayBuffer(n * SLOTS * 4),
    counters: new SharedArrayBuffer(Math.max(n, 1) * 4),
    status: new SharedArrayBuffer(Math.max(n, 1) * 8),
    n,
  };
}

// Views of one mailboxes object, made once per thread.
const cache = new WeakMap();
function views(mailboxes) {
  let v = cache.get(mailboxes);
  if (!v) {
    v = {
      rings: Array.from({ length: mailboxes.n }, (_, w) => new Int32Array(mailboxes.sab, w * SLOTS * 4, SLOTS)),
      counters: new Int32Array(mailboxes.counters),
      status: new Int32Array(mailboxes.status),
    };
    cache.set(mailboxes, v);
  }
  return v;
}

// Writes result = -EIO and state = 1 into a request nobody else will answer.
function answerEio(memory, request) {
  setResult(new DataView(memory.buffer), request, -EIO);
  answered(memory, request);
}

// Stores the request's state = 1 and wakes its caller.
function answered(memory, request) {
  const mem = new Int32Array(memory.buffer);
  const state = (request + REQ.STATE) >>> 2;
  Atomics.store(mem, state, 1);
  Atomics.notify(mem, state);
}

/**
 * Whether I/O worker w looks idle: serving nothing, and the last request put in its ring taken.
 * A hint for spreading requests any worker may serve (it can change at once).
 */
export function looksIdle(mailboxes, w) {
  const { rings, counters, status } = views(mailboxes);
  return Atomics.load(status, w) === ALIVE && Atomics.load(status, mailboxes.n + w) === 0 &&
    Atomics.load(rings[w], (Atomics.load(counters, w) - 1) & (SLOTS - 1)) === 0;
}

/** Whether I/O worker w's ring still serves (it has not failed). */
export function ringAlive(mailboxes, w) {
  return Atomics.load(views(mailboxes).status, w) === ALIVE;
}

/**
 * Puts `request` in I/O worker w's ring without waiting for it (submit's first half; an I/O
 * worker forwarding a request to another uses it too). False when the ring has failed: the
 * request is then answered with EIO.
 */
export function enqueue(mailboxes, w, memory, request) {
  const { rings, counters, status } = views(mailboxes);
  if (Atomics.load(status, w) !== ALIVE) { answerEio(memory, request); return false; }
  const slots = rings[w];
  const i = Atomics.add(counters, w, 1) & (SLOTS - 1);
  Atomics.store(slots, i, request);
  Atomics.notify(slots, i, 1);
  // the ring failed meanwhile and its sweep may have passed this slot: take the request back
  if (Atomics.load(status, w) !== ALIVE && Atomics.compareExchange(slots, i, request, 0) === request) {
    answerEio(memory, request);
    return false;
  }
  return true;
}

/** What a handler given to serve() returns when it passed the request on (enqueue): serve leaves it unanswered. */
export const FORWARDED = Symbol('forwarded');

/**
 * Calling thread: hands `request` to I/O worker w and blocks until it is answered (by the
 * worker, or with EIO when the worker died). Options (all optional):
 * - pollMs: poll the request's state for up to this many ms before sleeping in Atomics.wait (a
 *   fast answer then costs no futex wake-up);
 * - polling (Int32Array on a SharedArrayBuffer, [0]) and pollers: at most `pollers` callers
 *   sharing `polling` poll at once (so that polling does not take the I/O workers' cores).
 */
export function submit(mailboxes, w, memory, request, options) {
  if (!enqueue(mailboxes, w, memory, request)) return;
  const { status } = views(mailboxes);
  const mem = new Int32Array(memory.buffer);
  const at = (request + REQ.STATE) >>> 2;
  if (options?.pollMs > 0 && Atomics.load(mem, at) === 0) {
    const { polling, pollers = Infinity } = options;
    if (!polling || Atomics.add(polling, 0, 1) < pollers) {
      const until = performance.now() + options.pollMs;
      while (Atomics.load(mem, at) === 0 && performance.now() < until) { /* poll */ }
    }
    if (polling) Atomics.sub(polling, 0, 1);
  }
  while (Atomics.load(mem, at) === 0) {
    if (Atomics.wait(mem, at, 0, FAILED_CHECK_MS) !== 'timed-out') continue;
    // after the sweep (FAILED) nobody answers a request still unanswered: the worker was killed
    // between taking it and answering
    if (Atomics.load(status, w) === FAILED && Atomics.load(mem, at) === 0) return answerEio(memory, request);
  }
}

/**
 * Coordinator (or the I/O worker itself): marks I/O worker w's ring failed, then answers EIO to
 * every request in it and to the one the worker is serving. Later submits get EIO at once.
 * Returns false if the ring had failed already.
 */
export function failRing(mailboxes, w, memory) {
  const { rings, status } = views(mailboxes);
  if (Atomics.compareExchange(status, w, ALIVE, FAILING) !== ALIVE) return false;
  const slots = rings[w];
  for (let i = 0; i < SLOTS; i++) {
    const request = Atomics.exchange(slots, i, 0);
    if (request !== 0) answerEio(memory, request);
  }
  const serving = Atomics.exchange(status, mailboxes.n + w, 0);
  if (serving !== 0) answerEio(memory, serving);
  Atomics.store(status, w, FAILED);
  return true;
}

const reported = new WeakMap();
/**
 * Coordinator: I/O worker w of a mount failed (error event, exit, terminate, or its serve loop
 * threw): fails its ring (failRing) and prints `message` once on the console (stderr in Node).
 */
export function failWorker(mailboxes, w, memory, message) {
  failRing(mailboxes, w, memory);
  let done = reported.get(mailboxes.status);
  if (!done) reported.set(mailboxes.status, done = new Set());
  if (done.has(w)) return;
  done.add(w);
  console.error(`spindle: ${message}; its requests, and every later one to it, fail with EIO`);
}

/**
 * I/O worker w: serves its ring, one request at a time, in order, until the ring fails (then
 * resolves). handle(view, request) may be async; it writes result and outputs, not state; if it
 * throws, that request gets EIO; if it returns FORWARDED, another ring answers it. Options: pollMs: after each answer, poll the ring this long for
 * the next request before going back to wait (a thread reading sequentially sends its next
 * request a few microseconds after the answer, and a waitAsync wake-up goes through the worker's
 * event loop); waitAsync: wait with Atomics.waitAsync (default: in browsers) or Atomics.wait.
 * If the loop itself throws, the ring is failed and the returned promise rejects.
 */
export async function serve(mailboxes, w, memory, handle, options = {}) {
  const { rings, status } = views(mailboxes);
  const slots = rings[w];
  const current = mailboxes.n + w;
  const pollMs = options.pollMs ?? 0;
  // Node 20's Atomics.waitAsync in a worker is not woken by Atomics.notify from another thread
  // (notify counts 0 waiters), so Node I/O workers block in Atomics.wait between requests.
  const waitAsync = (options.waitAsync ?? !isNode) && typeof Atomics.waitAsync === 'function';
  let head = 0;
  try {
    for (;;) {
      let request = Atomics.load(slots, head);
      if (request === 0 && pollMs > 0) {
        const until = performance.now() + pollMs;
        while ((request = Atomics.load(slots, head)) === 0 && performance.now() < until) { /* poll */ }
      }
      while (request === 0) {
        if (Atomics.load(status, w) !== ALIVE) return;
        if (waitAsync) {
          const r = Atomics.waitAsync(slots, head, 0);
          if (r.async) await r.value;
        } else {
          Atomics.wait(slots, head, 0);
        }
        request = Atomics.load(slots, head);
      }
      // the slot's request is ours only if failRing's sweep did not take it first
      if (Atomics.exchange(slots, head, 0) !== request) return;
      head = (head + 1) & (SLOTS - 1);
      Atomics.store(status, current, request);
      // failed meanwhile: the sweep may have missed it; the caller answers itself (submit)
      if (Atomics.load(status, w) !== ALIVE) return;
      let outcome;
      try {
        outcome = await handle(new DataView(memory.buffer), request);
      } catch {
        setResult(new DataView(memory.buffer), request, -EIO);
      }
      // answered with EIO by failRing meanwhile: the request is no longer ours
      if (Atomics.compareExchange(status, current, request, 0) !== request) return;
      if (outcome !== FORWARDED) answered(memory, request);
    }
  } catch (err) {
    failRing(mailboxes, w, memory);
    throw err;
  }
}
