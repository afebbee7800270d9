// The instance of a Spindle module that one thread runs in: the C main's, a pool worker's (which
// then runs pthread after pthread), or, with --fs=js in Node, the C main's on the host thread.
// Every one gets the same memory, thread-spawn and spindle.* imports; only WASI and a few
// spindle.* imports (files, mounts, the JS filesystem's waits) differ between the hosts.
import { coarseWallClockMs } from '../platform/wall-clock.js';
import { stackOverflow } from './stack-overflow.js';

/** Thrown by pthread_exit; caught where the thread's start routine was entered. */
class ThreadExit extends Error {
  constructor(value) { super('pthread_exit'); this.value = value; }
}

/**
 * Instantiates `module` for a thread. wasi: its wasi_snapshot_preview1 imports; spawn: the
 * wasi.thread-spawn import; hostImports: the spindle.* imports that depend on the host;
 * bodyEnded: called when a pthread's start routine has returned (not for the C main);
 * beforeSpawn: called by pthread_create before libc's (host/threads/control.js, waitForEndingSlot).
 */
export function instantiateThread(module, { memory, cpuCount, wasi, spawn, hostImports, bodyEnded = () => {}, beforeSpawn = () => {} }) {
  let instance;
  // runtime/core/pthread_exit.c enters each start routine through run_thread_body, so the throw
  // of pthread_exit unwinds to here and the thread ends through libc's usual path. `bodyEnded`
  // says so before libc wakes pthread_join (host/threads/control.js, EXITING).
  const runThreadBody = (start, arg) => {
    let value;
    try {
      value = instance.exports.__spindle_invoke_start(start, arg);
    } catch (err) {
      if (!(err instanceof ThreadExit)) throw err;
      value = err.value;
    }
    bodyEnded();
    return value;
  };
  instance = new WebAssembly.Instance(module, {
    env: { memory },
    wasi_snapshot_preview1: wasi,
    wasi: { 'thread-spawn': spawn },
    spindle: {
      cpu_count: () => cpuCount,
      run_thread_body: runThreadBody,
      thread_slot_wait: () => beforeSpawn(),
      thread_exit: (value) => { throw new ThreadExit(value); },
      stack_overflow: stackOverflow,
      fs_clock_ms: coarseWallClockMs, // runtime/fs/core/stamp_clock.c: file timestamps
      date_now_ms: Date.now, // ... and when to read them again: an engine function, no JS to compile
      stamp_ticker: () => 0, // ... unless the host keeps that clock in memory (hostImports)
      ...hostImports,
    },
  });
  return instance;
}
