// What every Spindle thread's instance needs, wherever it runs: a worker (host/program/thread-worker.js)
// or, for the C main of a `spindle run` in Node, the host's main thread (host/program/program.js,
// mainThread 'here').
// `post(msg)` sends a thread's reports (fate, trap, start-worker) to whoever ends the program.
import {
  BROKEN_PIPE_EXIT, createControl, FATE, programEnded, settleFate, spawnThread, threadBodyEnded, threadLimitHint, waitForEndingSlot,
} from '../threads/control.js';
import { terminateIfUncaughtCxx } from '../threads/cxx-exceptions.js';
import { uncatchableByWasm } from '../threads/uncatchable.js';
import { ProgramExit, stdioFsTypeImport, stdioNameImport, wasiImports } from '../wasi/imports.js';
import { filesImports } from '../files/service.js';
import { mountImports } from '../mount/index.js';
import { failureMessage } from '../threads/stack-overflow.js';
import { instantiateThread } from '../threads/thread-instance.js';
import { threadModule } from './thread-module.js';
import { useWallClockBase } from '../platform/wall-clock.js';
import { CLOCK } from '../abi/wasi.js';
import { bufferCovering, catchUpMemory } from '../platform/memory-view.js';

/**
 * The thread's instance of init.module. `loaded`: { platform, wasiFiles, jsfsProxy }, the
 * modules its worker loaded (the last two only for modules that need them).
 */
export function instantiate(init, post, { platform, wasiFiles = null, jsfsProxy = null, warm = false }) {
  const { memory, control } = init;
  // (a pthread's worker; the C main's instance is the program's module's)
  const module = init.slot === undefined ? init.module : threadModule(init);
  useWallClockBase(init.clockBaseNs);
  // a worker that took the memory in while another thread grew it may see it shorter for good
  catchUpMemory(memory);
  // (where the C main runs on the host's thread, that thread reads no report while main runs:
  // the platform then has no one to ask for what its event loop would do, host/program/own-end.js)
  const io = platform.threadIo(init.io, init.endsProcess ? undefined : post);
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
  const instance = instantiateThread(module, {
    memory, cpuCount: init.cpuCount, wasi, spawn,
    // a pool worker's thread is ending: its slot is IDLE soon (host/threads/control.js, EXITING)
    bodyEnded: init.slot === undefined ? undefined : () => threadBodyEnded(control, init.slot),
    beforeSpawn: () => waitForEndingSlot(control),
    hostImports: {
      // runtime/jsfs: threads on workers wait as usual (only the host thread serves files)
      jsfs_on_host_thread: () => 0,
      jsfs_host_thread_wait: (addr, expected, timeoutNs) => {
        addr >>>= 0;
        if (addr % 4 !== 0 || addr + 4 > bufferCovering(memory, addr + 4).byteLength) return -28; // (a module's bad address: EINVAL)
        const r = Atomics.wait(new Int32Array(memory.buffer), addr >>> 2, expected,
          timeoutNs < 0n ? Infinity : Number(timeoutNs) / 1e6);
        return r === 'ok' ? 0 : r === 'not-equal' ? -6 : -73;
      },
      // runtime/wasi/files_api_service.c: the files API's service thread (host/files)
      ...filesImports(init, memory, post),
      // runtime/fs/core/stamp_clock.c: the stamp clock kept in memory by the host, in a cell
      // whose address the module gives: 16 bytes inside memory, aligned, or no ticker (0)
      stamp_ticker: (at) => {
        at >>>= 0;
        return at % 16 === 0 && at + 16 <= bufferCovering(memory, at + 16).byteLength ? io.keepStampClock(memory, at) : 0;
      },
      // runtime/wasi/wasi_stdio.c: /proc/self/fd's text for the host's stdio
      stdio_name: stdioNameImport(memory, io),
      // runtime/posix/statfs.c: fstatfs of the host's stdio
      stdio_fs_type: stdioFsTypeImport(io),
      // runtime/fs/mount/mount_host.c: mounted directories (host/mount, docs/MOUNTS.md)
      ...mountImports(init.mounts, memory),
    },
  });
  if (warm) warmThreadPaths(instance, wasi);
  return instance;
}

/**
 * Runs one thread's code; reports how it ended if it ended the program. Returns true when the
 * body returned. `afterFailure` wakes whoever must notice the end (--fs=js's host thread).
 */
export function runThread(control, tid, instance, body, post, afterFailure = () => {}) {
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
    afterFailure();
    return false;
  }
}

/**
 * Runs a thread's start and a pthread_create's spawn once, on a scratch control block, and
 * reads the monotonic clock (into no memory: the address is refused), in a worker that has just
 * made its instance. A worker compiles each function of ours the first time it calls it, and a page's
 * workers have no compiled code of ours kept between runs: the first pthread_create and each new
 * thread's first steps spent 0.2-0.6 ms compiling these paths while the program waited
 * (docs/HOST.md, "Warm paths in a thread's worker").
 */
function warmThreadPaths(instance, wasi) {
  const scratch = createControl(1);
  waitForEndingSlot(scratch);
  const tid = spawnThread(scratch, 0, () => {});
  runThread(scratch, tid, instance, () => threadBodyEnded(scratch, 0), () => {});
  // (the monotonic clock only: Node's wall clock without the addon's base loads perf_hooks, ~5 ms)
  wasi.clock_time_get(CLOCK.MONOTONIC, 0n, -8);
}

/** Runs the C main; main returning ends the program, whatever other threads are doing (as in C). */
export function runMain(control, instance, post, afterFailure) {
  if (runThread(control, 0, instance, () => instance.exports._start(), post, afterFailure)) {
    if (settleFate(control, FATE.EXITED, 0)) post({ type: 'fate' });
  }
}
