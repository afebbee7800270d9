// `spindle cc --fs=js` in Node: the C main runs on the host's main thread (as Emscripten runs
// it by default), next to the JS filesystem, so its file calls are direct JavaScript calls.
// Pthreads' file calls come through the mailbox (proxy.js). Whenever the C main blocks (every
// libc wait goes through runtime/jsfs's hook into jsfs_host_thread_wait) this thread serves
// them, starts workers that spawners asked for, and notices when another thread ended the
// program (it then unwinds the C main).
import { BROKEN_PIPE_EXIT, FATE, HEADER, programEnded, settleFate, SLOT, slotCount, slotIndex, spawnThread } from '../threads/control.js';
import { terminateIfUncaughtCxx } from '../threads/cxx-exceptions.js';
import { uncatchableByWasm } from '../threads/uncatchable.js';
import { ProgramExit, stdioFsTypeImport, wasiImports } from '../wasi/imports.js';
import { JsFs } from './fs.js';
import { jsFsFileCalls } from './wasi-calls.js';
import { CH, proxyServer } from './proxy.js';
import { failureMessage } from '../threads/stack-overflow.js';
import { bufferCovering } from '../platform/memory-view.js';
import { instantiateThread } from '../threads/thread-instance.js';

// Longest sleep between checks when nothing rings: a ring (ringHostThread) can be lost in the
// instant between publishing the wait address and entering Atomics.wait.
const POLL_MS = 1;
const EAGAIN = 6;
const ETIMEDOUT = 73;
const EINVAL = 28;

/** The JS filesystem with its WASI binding and mailbox server, for the host's main thread. */
export function jsFsHost(channel, memory, stdio) {
  const calls = jsFsFileCalls(new JsFs(), memory, stdio);
  return { calls, server: proxyServer(channel, calls) };
}

/** Raised on the host thread when another thread ended the program: unwinds the C main. */
class EndedElsewhere extends ProgramExit {}

/**
 * Instantiates the main instance on this thread (it must be the first instance: it initialises
 * the data segments and owns the main thread's static TLS). Returns { run } where run() runs
 * `_start` synchronously and reports the end through `end` (or leaves it to the workers'
 * messages when another thread ended the program).
 */
export function instantiateOnHostThread({ module, memory, control, channel, cpuCount, args, env, io, platform, spawnWorker, end }) {
  const ch = new Int32Array(channel);
  const threadIo = platform.threadIo(io);
  let spawnSeen = 0;
  let server;

  function startRequestedWorkers() {
    const spawn = Atomics.load(ch, CH.SPAWN);
    if (spawn === spawnSeen) return;
    spawnSeen = spawn;
    // A spawner claimed an EMPTY slot (every worker busy): start its worker now, since this
    // thread's event loop (where its message waits) does not run while C code does.
    for (let slot = 0; slot < slotCount(control); slot++) {
      if (Atomics.load(control, slotIndex(slot)) !== SLOT.EMPTY) spawnWorker(slot);
    }
  }

  function serviceDuties() {
    if (Atomics.load(control, HEADER.FATE) !== FATE.RUNNING) throw uncatchableByWasm(new EndedElsewhere(Atomics.load(control, HEADER.EXIT_CODE)));
    server.serve();
    startRequestedWorkers();
  }

  let waitView = null;
  const memI32 = () => {
    if (!waitView || waitView.buffer !== memory.buffer) waitView = new Int32Array(memory.buffer);
    return waitView;
  };

  function hostThreadWait(addr, expected, timeoutNs) {
    addr >>>= 0;
    if (addr % 4 !== 0 || addr + 4 > bufferCovering(memory, addr + 4).byteLength) return -EINVAL; // (a bad address from the module)
    const deadline = timeoutNs < 0n ? Infinity : performance.now() + Number(timeoutNs) / 1e6;
    const index = addr >>> 2;
    for (;;) {
      serviceDuties();
      const view = memI32();
      if (Atomics.load(view, index) !== expected) return -EAGAIN;
      Atomics.store(ch, CH.MAIN_WAIT_ADDR, addr + 1);
      if (server.pending() || Atomics.load(ch, CH.SPAWN) !== spawnSeen) {
        Atomics.store(ch, CH.MAIN_WAIT_ADDR, 0);
        continue;
      }
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        Atomics.store(ch, CH.MAIN_WAIT_ADDR, 0);
        return -ETIMEDOUT;
      }
      const r = Atomics.wait(view, index, expected, Math.min(remaining, POLL_MS));
      Atomics.store(ch, CH.MAIN_WAIT_ADDR, 0);
      if (r === 'not-equal') return -EAGAIN;
      if (r === 'ok') return 0; // woken: by the waker, or rung for a request (spurious to C)
    }
  }

  // poll_oneoff's sleeps: wait on the doorbell, so a request wakes the sleeper at once.
  function sleep(ns) {
    const deadline = performance.now() + Number(ns) / 1e6;
    for (;;) {
      serviceDuties();
      const remaining = deadline - performance.now();
      if (remaining <= 0) return;
      const doorbell = Atomics.load(ch, CH.DOORBELL);
      if (server.pending()) continue;
      Atomics.wait(ch, CH.DOORBELL, doorbell, Math.min(remaining, POLL_MS));
    }
  }

  const exit = (code) => {
    settleFate(control, FATE.EXITED, code);
    throw uncatchableByWasm(new ProgramExit(code));
  };
  // A closed stdout/stderr ends the program with 141 at that write, as SIGPIPE would
  // (docs/HOST.md). Workers answer EPIPE and are stopped by the coordinator; nothing can stop this
  // thread from outside, so it unwinds at once.
  const brokenPipe = () => exit(BROKEN_PIPE_EXIT);
  const stdio = wasiImports({ memory, args, env, platform: threadIo, exit, sleep, brokenPipe,
    ended: () => programEnded(control) });
  const host = jsFsHost(channel, memory, stdio);
  server = host.server;
  // The C main's own file calls: direct; serve waiting threads first so none starves while
  // main does I/O itself.
  const direct = {};
  for (const [name, fn] of Object.entries(host.calls)) {
    direct[name] = (...list) => {
      if (server.pending()) server.serve();
      return fn(...list);
    };
  }
  const wasi = new Proxy(direct, { get: (target, name) => (name in target ? target[name] : stdio[name]) });

  const spawn = (startArg) => spawnThread(control, startArg, spawnWorker);
  const instance = instantiateThread(module, {
    memory, cpuCount, wasi, spawn,
    // runtime/jsfs: this thread serves the others' file calls while it waits
    hostImports: { jsfs_on_host_thread: () => 1, jsfs_host_thread_wait: hostThreadWait, stdio_fs_type: stdioFsTypeImport(threadIo) },
  });

  function run() {
    try {
      instance.exports._start();
      // main returned: the program ends, whatever other threads are doing (as in C).
      settleFate(control, FATE.EXITED, 0);
      end();
    } catch (uncaught) {
      const err = terminateIfUncaughtCxx(instance, uncaught);
      if (err instanceof EndedElsewhere) return; // the ending thread's message follows
      if (err instanceof ProgramExit) { end(); return; }
      if (settleFate(control, FATE.TRAPPED, 134)) end(`thread main: ${failureMessage(err)}`);
    }
  }
  return { run };
}
