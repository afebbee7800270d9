// The shared control block: one Int32Array on a SharedArrayBuffer, seen by the coordinator and
// every thread's worker. It holds the thread-id counter, the program's fate (exit code or trap)
// and one slot per worker. A thread is started by writing (tid, start_arg) into an idle slot
// and waking its worker: no message, no main-thread round trip.

export const HEADER = {
  NEXT_TID: 0,     // next thread id to hand out (wasi-threads ids are > 0)
  FATE: 1,         // RUNNING, or how the program ended (first writer wins)
  EXIT_CODE: 2,
  LIMIT_HINTED: 3, // 1 once the thread-limit hint was printed
  SLOTS_USED: 4,   // how many slots have run a thread (slotsUsed)
};
export const HEADER_INTS = 8;
export const SLOT_INTS = 4; // state, tid, start_arg, used (1 once a thread ran there)

export const FATE = { RUNNING: 0, EXITED: 1, TRAPPED: 2 };

// Slot life: EMPTY -> (worker created) STARTING -> IDLE <-> CLAIMED -> ASSIGNED -> RUNNING ->
// EXITING -> IDLE. A spawner may also claim a STARTING slot (its worker is on the way) or an
// EMPTY one (the coordinator then creates its worker); either worker finds the thread already
// ASSIGNED. EXITING: the start routine has returned (or called pthread_exit) and libc is ending
// the thread, so pthread_join may have returned already; the slot is IDLE again microseconds
// later, unless a thread-specific destructor takes longer.
export const SLOT = { EMPTY: 0, STARTING: 1, IDLE: 2, CLAIMED: 3, ASSIGNED: 4, RUNNING: 5, EXITING: 6 };

// How long a thread about to create one waits for an EXITING slot before its pthread_create takes
// an EMPTY one, whose worker boots in 20-60 ms: a program that joins its threads and creates the
// next ones at once (a parallel loop) booted a new worker for each thread created before the
// last one's slot was IDLE again (waitForEndingSlot).
export const EXITING_WAIT_MS = 20;

export function createControl(maxThreads) {
  const ints = HEADER_INTS + maxThreads * SLOT_INTS;
  const control = new Int32Array(new SharedArrayBuffer(ints * 4));
  control[HEADER.NEXT_TID] = 1;
  return control;
}

export function slotCount(control) {
  return (control.length - HEADER_INTS) / SLOT_INTS;
}

export function slotIndex(slot) {
  return HEADER_INTS + slot * SLOT_INTS;
}

// A write to stdout or stderr whose reader is gone ends the program with this status, as
// SIGPIPE's default action ends a native one (128 + 13); docs/HOST.md.
export const BROKEN_PIPE_EXIT = 141;

/** What a run whose thread's worker went away while the program ran says before it ends with 134 (host/threads/lifelines.js). */
export const VANISHED_LINE = 'spindle: worker failed: worker exited before the program ended\n';

export const programEnded = (control) => Atomics.load(control, HEADER.FATE) !== FATE.RUNNING;

/** Records how the program ended; returns false if another thread got there first. */
export function settleFate(control, fate, exitCode) {
  if (Atomics.compareExchange(control, HEADER.FATE, FATE.RUNNING, fate) !== FATE.RUNNING) return false;
  Atomics.store(control, HEADER.EXIT_CODE, exitCode);
  Atomics.notify(control, HEADER.FATE);
  return true;
}

/**
 * Hands thread `tid` with `startArg` to a worker. Returns { slot, needsWorker } or null when
 * every slot is taken. Runs on any thread.
 */
export function claimSlot(control, tid, startArg) {
  // a STARTING slot's worker is coming: taking it is not hitting the limit while the pool grows
  // (IDLE again in the second pass: a STARTING slot may have become IDLE since the first)
  return claimSlotIn(control, tid, startArg, [SLOT.IDLE]) ??
    claimSlotIn(control, tid, startArg, [SLOT.IDLE, SLOT.STARTING]) ?? claimSlotIn(control, tid, startArg, [SLOT.EMPTY]);
}

// claimSlot's pass: the first slot in one of the states `wanted` that it can take, or null.
function claimSlotIn(control, tid, startArg, wanted) {
  for (let slot = 0; slot < slotCount(control); slot++) {
    const i = slotIndex(slot);
    const state = Atomics.load(control, i);
    if (!wanted.includes(state)) continue;
    if (Atomics.compareExchange(control, i, state, SLOT.CLAIMED) !== state) continue;
    control[i + 1] = tid;
    control[i + 2] = startArg;
    // (the slot is this thread's until ASSIGNED: no other claim reads its `used`)
    if (control[i + 3] === 0) {
      control[i + 3] = 1;
      Atomics.add(control, HEADER.SLOTS_USED, 1);
    }
    Atomics.store(control, i, SLOT.ASSIGNED);
    Atomics.notify(control, i);
    return { slot, needsWorker: state === SLOT.EMPTY };
  }
  return null;
}

/**
 * Called by a thread about to create one (runtime/core/pthread_exit.c, before libc's
 * pthread_create takes its thread list lock, which an ending thread still needs): where no slot
 * is IDLE or STARTING but one is EXITING, waits for that one to be IDLE (its worker notifies), at
 * most EXITING_WAIT_MS at a time and for as many changes as there are slots. No clock is read.
 */
export function waitForEndingSlot(control) {
  for (let round = 0; round <= slotCount(control); round++) {
    let exiting = -1;
    for (let slot = 0; slot < slotCount(control); slot++) {
      const state = Atomics.load(control, slotIndex(slot));
      if (state === SLOT.IDLE || state === SLOT.STARTING) return;
      if (state === SLOT.EXITING && exiting < 0) exiting = slot;
    }
    if (exiting < 0 || Atomics.wait(control, slotIndex(exiting), SLOT.EXITING, EXITING_WAIT_MS) === 'timed-out') return;
  }
}

/** Marks slot `slot` EXITING: its thread's start routine has returned (claimSlot waits for it). */
export function threadBodyEnded(control, slot) {
  Atomics.compareExchange(control, slotIndex(slot), SLOT.RUNNING, SLOT.EXITING);
}

/**
 * How many slots have run a thread: the most threads the program had at once, near enough
 * (claimSlot takes an idle slot before it takes another), which is how many workers its next run
 * wants ready (cli/run/thread-hint.js).
 */
export function slotsUsed(control) {
  // (a count kept as slots are first claimed: a walk of 1,024 slots took ~0.35 ms of a run's end)
  return Atomics.load(control, HEADER.SLOTS_USED);
}

/**
 * The one-line hint printed, once per program, when pthread_create first fails because every
 * slot is taken; null after the first time.
 */
export function threadLimitHint(control) {
  if (Atomics.compareExchange(control, HEADER.LIMIT_HINTED, 0, 1) !== 0) return null;
  return `spindle: thread limit ${slotCount(control)} reached; pthread_create fails with EAGAIN until a thread ` +
    'ends (each thread is a worker: about 7 MiB in Node, see docs/HOST.md)\n';
}

/**
 * wasi thread-spawn, from any thread: a new thread id handed to a worker slot, or -1
 * (pthread_create's EAGAIN) when the program is ending, ids ran out or every slot is taken.
 * `needsWorker(slot)` is called when the claimed slot has no worker yet, `atLimit()` when every
 * slot is taken.
 */
export function spawnThread(control, startArg, needsWorker, atLimit = () => {}) {
  if (Atomics.load(control, HEADER.FATE) !== FATE.RUNNING) return -1;
  const tid = Atomics.add(control, HEADER.NEXT_TID, 1);
  if (tid > 0x1fffffff) return -1; // wasi-threads ids are 29 bits
  const claimed = claimSlot(control, tid, startArg);
  if (!claimed) {
    atLimit();
    return -1;
  }
  if (claimed.needsWorker) needsWorker(claimed.slot);
  return tid;
}
