// A worker that runs wasm threads: either the C main (`_start`) or, as a pool worker, one
// pthread after another (`wasi_thread_start`), reusing its instance. wasi_thread_start sets
// the stack pointer and TLS of each new thread, so one instance serves many threads in turn.
import { BROKEN_PIPE_EXIT, FATE, programEnded, settleFate, SLOT, slotIndex, spawnThread, threadLimitHint } from './control.js';
import { terminateIfUncaughtCxx } from './cxx-exceptions.js';
import { uncatchableByWasm } from './uncatchable.js';
import { ProgramExit, stdioFsTypeImport, stdioNameImport, wasiImports } from './wasi.js';
import { filesImports } from './files/service.js';
import { loadBackends, mountImports } from './mount/index.js';
import { failureMessage } from './stack-overflow.js';
import { instantiateThread } from './thread-instance.js';
import { isNode, loadPlatform } from './platform/current.js';

// In a browser, messages that arrive while a module worker is still in a top-level await are
// dropped unless a handler exists, so listen first and hold messages until the host is loaded.
const early = [];
let handle = (msg) => early.push(msg);
if (!isNode) self.onmessage = (e) => handle(e.data);
const port = isNode ? (await import('node:worker_threads')).parentPort : self;
if (isNode) port.on('message', (msg) => handle(msg));
const platform = await loadPlatform();
const post = (msg, transfer) => port.postMessage(msg, transfer);
// The host may now change V8's flags without slowing this worker's start (host/early-worker.js).
post({ type: 'loaded' });

function onMessage(handler) {
  handle = handler;
  early.splice(0).forEach((msg) => handler(msg));
}

function instantiate(init) {
  const { module, memory, control } = init;
  const io = platform.threadIo(init.io, post);
  // --fs=js: file calls go to the JS filesystem on the host's main thread (host/jsfs).
  const jsfs = init.jsfs ? new Int32Array(init.jsfs.channel) : null;
  // In Node the C main may be blocked on the host thread: wake it for what only it can do.
  const ringHost = () => { if (jsfs) jsfsProxy.ringHostThread(jsfs, memory); };
  const exit = (code) => {
    if (settleFate(control, FATE.EXITED, code)) post({ type: 'fate' });
    ringHost();
    throw uncatchableByWasm(new ProgramExit(code));
  };
  const spawn = (startArg) => spawnThread(control, startArg, (slot) => {
    post({ type: 'start-worker', slot });
    if (jsfs) { Atomics.add(jsfs, jsfsProxy.CH.SPAWN, 1); ringHost(); }
  }, () => {
    const hint = threadLimitHint(control);
    if (hint) io.writeStdio(2, new TextEncoder().encode(hint)); // the program's stderr
  });
  // A closed stdout/stderr: the write answers EPIPE and the program ends with 141 (docs/HOST.md).
  const brokenPipe = () => {
    if (settleFate(control, FATE.EXITED, BROKEN_PIPE_EXIT)) post({ type: 'fate' });
    ringHost();
  };
  let wasi = wasiImports({ memory, args: init.args, env: init.env, platform: io, exit, brokenPipe,
    ended: () => programEnded(control) });
  // mailbox 0 is the C main's (browsers), 1 + slot a pool worker's
  // a module without Spindle's filesystem: mounts are WASI preopens served by the host
  if (init.wasiFiles) wasi = wasiFiles.withHostFiles(wasi, { memory, mounts: init.mounts, table: init.wasiFiles.table });
  if (jsfs) wasi = jsfsProxy.proxiedWasi(init.jsfs.channel, init.slot === undefined ? 0 : init.slot + 1, memory, wasi);
  return instantiateThread(module, {
    memory, cpuCount: init.cpuCount, wasi, spawn,
    hostImports: {
      // runtime/jsfs: threads on workers wait as usual (only the host thread serves files)
      jsfs_on_host_thread: () => 0,
      jsfs_host_thread_wait: (addr, expected, timeoutNs) => {
        addr >>>= 0;
        if (addr % 4 !== 0 || addr + 4 > memory.buffer.byteLength) return -28; // (a module's bad address: EINVAL)
        const r = Atomics.wait(new Int32Array(memory.buffer), addr >>> 2, expected,
          timeoutNs < 0n ? Infinity : Number(timeoutNs) / 1e6);
        return r === 'ok' ? 0 : r === 'not-equal' ? -6 : -73;
      },
      // runtime/wasi/host_files.c: the files API's service thread (host/files)
      ...filesImports(init, memory, post),
      // runtime/wasi/wasi_stdio.c: /proc/self/fd's text for the host's stdio
      stdio_name: stdioNameImport(memory, io),
      // runtime/posix/statfs.c: fstatfs of the host's stdio
      stdio_fs_type: stdioFsTypeImport(io),
      // runtime/fs/mount/mount_host.c: mounted directories (host/mount, docs/MOUNTS.md)
      ...mountImports(init.mounts, memory),
    },
  });
}

// Runs one thread's code; reports how it ended if it ended the program.
function runThread(control, tid, instance, body) {
  try {
    body();
    return true;
  } catch (uncaught) {
    const err = terminateIfUncaughtCxx(instance, uncaught);
    if (err instanceof ProgramExit) return false;
    const message = failureMessage(err);
    if (settleFate(control, FATE.TRAPPED, 134)) {
      post({ type: 'trap', tid, message, stack: String(err?.stack || '') });
    }
    if (jsfsChannel) jsfsProxy.ringHostThread(jsfsChannel, memoryOfThread);
    return false;
  }
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
    const tid = control[i + 1];
    const startArg = control[i + 2];
    if (!runThread(control, tid, instance, () => instance.exports.wasi_thread_start(tid, startArg))) return;
    Atomics.store(control, i, SLOT.IDLE);
  }
}

let jsfsChannel = null;
let memoryOfThread = null;
let wasiFiles = null; // host/wasi-files.js, loaded for a module whose mounts are WASI preopens
let jsfsProxy = null; // host/jsfs/proxy.js, loaded for a --fs=js module

onMessage(async (msg) => {
  if (msg.type === 'init') {
    // host/mount's backends and the --fs=js mailbox load only in a program that uses them (each
    // worker pays for what it loads); messages that come meanwhile wait in `early`
    if (msg.mounts?.length || msg.jsfs) handle = (m) => early.push(m);
    if (msg.mounts?.length) {
      await loadBackends();
      if (msg.wasiFiles) wasiFiles = await import('./wasi-files.js');
    }
    if (msg.jsfs) jsfsProxy = await import('./jsfs/proxy.js');
    jsfsChannel = msg.jsfs ? new Int32Array(msg.jsfs.channel) : null;
    memoryOfThread = msg.memory;
    let instance;
    try {
      instance = instantiate(msg);
    } catch (err) {
      post({ type: 'failed', message: `instantiation failed: ${err.message}` });
      return;
    }
    if (msg.slot === undefined) {
      post({ type: 'ready' });
      onMessage((start) => {
        if (start.type !== 'start') return;
        if (runThread(msg.control, 0, instance, () => instance.exports._start())) {
          // main returned: the program ends, whatever other threads are doing (as in C).
          if (settleFate(msg.control, FATE.EXITED, 0)) post({ type: 'fate' });
        }
      });
    } else {
      serveSlot(msg, instance);
    }
  }
});
