// A worker that runs wasm threads: either the C main (`_start`) or, as a pool worker, one
// pthread after another (`wasi_thread_start`), reusing its instance. wasi_thread_start sets
// the stack pointer and TLS of each new thread, so one instance serves many threads in turn.
import { SLOT, slotIndex } from '../threads/control.js';
import { loadBackends } from '../mount/index.js';
import { instantiate, runMain, runThread } from './thread-setup.js';
import { isNode, loadPlatform } from '../platform/current.js';

// No top-level await: Node's workers start from a CommonJS bundle of this file (cli/common/bundles.js).
// Messages that come before the host is loaded wait in `early` (a browser drops those that
// reach a module worker with no handler, so the handler is there from the first step).
const early = [];
let handle = (msg) => early.push(msg);
if (!isNode) self.onmessage = (e) => handle(e.data);
const port = isNode ? process.getBuiltinModule('node:worker_threads').parentPort : self;
if (isNode) port.on('message', (msg) => handle(msg));
let platform; // (loaded by start(), below)
const toHost = (msg, transfer) => port.postMessage(msg, transfer);
// how this thread reports; a worker of a program whose main runs on Node's main thread ends the
// process itself and starts the workers its threads want (host/program/own-end.js)
let post = toHost;

function onMessage(handler) {
  handle = handler;
  early.splice(0).forEach((msg) => handler(msg));
}

function serveSlot(init, instance) {
  const { control } = init;
  const i = slotIndex(init.slot);
  // A spawner may have assigned a thread to this slot before the worker existed.
  Atomics.compareExchange(control, i, SLOT.STARTING, SLOT.IDLE);
  post({ type: 'ready' });
  for (;;) {
    let state;
    while ((state = Atomics.load(control, i)) !== SLOT.ASSIGNED) Atomics.wait(control, i, state);
    Atomics.store(control, i, SLOT.RUNNING);
    keepCode?.pending();
    const tid = control[i + 1];
    const startArg = control[i + 2];
    if (!runThread(control, tid, instance, () => instance.exports.wasi_thread_start(tid, startArg), post, ringHostThread)) {
      keepCode?.drop();
      return;
    }
    Atomics.store(control, i, SLOT.IDLE);
    Atomics.notify(control, i); // (a spawner may wait for this slot: control.js, claimSlot)
    keepCode?.write();
  }
}

// The CLI's bundle of this file runs as a script whose V8 code is kept (cli/run/script-cache.js,
// workerScript): its loader hands the script here, and where it came without code V8 took, the
// code is kept by the first worker whose thread starts (keep.keeping[0], KEEP in
// host/code-cache/script-code.js) once that thread has ended, with the functions a thread runs
// compiled; the coordinator lets the write finish before it ends a worker (host/program/node-workers.js).
let keepCode = null;
export function scriptLoaded(script, keep) {
  if (!keep) return;
  const { keeping } = keep;
  import('../code-cache/script-code.js').then(({ KEEP, keepScriptCode }) => {
    const now = (state) => { Atomics.store(keeping, 0, state); Atomics.notify(keeping, 0); };
    const done = () => now(KEEP.DONE);
    keepCode = {
      // (another worker's thread came first: it keeps the code)
      pending() { if (Atomics.compareExchange(keeping, 0, KEEP.NONE, KEEP.THREAD) !== KEEP.NONE) keepCode = null; },
      write() {
        keepCode = null;
        now(KEEP.WRITING);
        try { keepScriptCode(script, keep.dir, keep.key); } catch { /* only an optimization */ }
        done();
      },
      // (a thread that ended the program: nothing is kept, and nobody waits)
      drop() { keepCode = null; done(); },
    };
  });
}

let jsfsChannel = null;
let memoryOfThread = null;
// a thread that failed wakes --fs=js's host thread, which may be blocked waiting for it
const ringHostThread = () => { if (jsfsChannel) jsfsProxy.ringHostThread(jsfsChannel, memoryOfThread); };
let wasiFiles = null; // host/wasi/preopens.js, loaded for a module whose mounts are WASI preopens
let jsfsProxy = null; // host/jsfs/proxy.js, loaded for a --fs=js module

// An init message makes this thread's instance; then main starts, or the slot serves pthreads.
const serve = async (msg) => {
  if (msg.type === 'init') {
    // host/mount's backends and the --fs=js mailbox load only in a program that uses them (each
    // worker pays for what it loads); messages that come meanwhile wait in `early`
    if (msg.mounts?.length || msg.jsfs) handle = (m) => early.push(m);
    if (msg.mounts?.length) {
      await loadBackends();
      if (msg.wasiFiles) wasiFiles = await import('../wasi/preopens.js');
    }
    if (msg.jsfs) jsfsProxy = await import('../jsfs/proxy.js');
    jsfsChannel = msg.jsfs ? new Int32Array(msg.jsfs.channel) : null;
    memoryOfThread = msg.memory;
    if (msg.endsProcess) post = (await import('./own-end.js')).ownEnd(msg, toHost);
    let instance;
    try {
      instance = instantiate(msg, post, { platform, wasiFiles, jsfsProxy, warm: true });
    } catch (err) {
      post({ type: 'failed', message: `instantiation failed: ${err.message}` });
      return;
    }
    if (msg.slot === undefined) {
      post({ type: 'ready' });
      onMessage((start) => {
        if (start.type !== 'start') return;
        runMain(msg.control, instance, post, ringHostThread);
      });
    } else {
      serveSlot(msg, instance);
    }
  }
};

async function start() {
  platform = await loadPlatform();
  // The host may now change V8's flags without slowing this worker's start (host/program/early-worker.js).
  toHost({ type: 'loaded' });
  onMessage(serve);
}
start();
