// A worker of the npm WASI host baseline (see run-node.mjs): a pthread (emnapi's
// ThreadMessageHandler, as in the worker file napi-rs generates for wasm32-wasip1-threads
// packages), or, with workerData.role === 'main', the C main itself.
//
// Every worker has its OWN WASI object (@tybys/wasm-util), so its own fd table: an fd opened on
// one thread means nothing on another. Its file system is createFsProxy(memfs): each fs call is
// posted to the Node main thread, which owns the memfs volume, and the worker blocks in
// Atomics.wait until the answer comes back.
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { ThreadMessageHandler, WASIThreads } from '@emnapi/wasi-threads';
import { WASI, createFsProxy } from '@napi-rs/wasm-runtime';
import { memfsExported } from '@napi-rs/wasm-runtime/fs';

// emnapi and createFsProxy talk to the parent through a global postMessage (as in a browser worker).
globalThis.postMessage = (message) => parentPort.postMessage(message);

const { role, args, env, pending, preopens } = workerData;
const pendingCalls = new Int32Array(pending);
const proxy = createFsProxy(memfsExported);
// Counts calls in flight, so the run's watchdog can tell "waiting for the main thread" apart
// from "working" (a deadlock is a call in flight that nobody serves).
const fs = new Proxy({}, {
  get: (_, name) => (...callArgs) => {
    Atomics.add(pendingCalls, 0, 1);
    try {
      return proxy[name](...callArgs);
    } finally {
      Atomics.sub(pendingCalls, 0, 1);
    }
  },
});
const out = (fd) => (line) => writeSync(fd, `${line}\n`);

function newWasi(options = {}) {
  return new WASI({ version: 'preview1', args, env, fs, preopens, print: out(1), printErr: out(2), ...options });
}

function instantiate(wasi, wasiThreads, wasmModule, wasmMemory) {
  return new WebAssembly.Instance(wasmModule, {
    env: { memory: wasmMemory },
    wasi_snapshot_preview1: wasi.wasiImport,
    ...wasiThreads.getImportObject(),
  });
}

if (role === 'main') {
  // The C main on a worker: thread-spawn goes to the Node main thread ('spawn-thread' message),
  // which creates the pthread's worker, as it does for threads spawned by pthreads.
  const { wasmModule, wasmMemory } = workerData;
  const wasi = newWasi({ returnOnExit: true });
  const wasiThreads = new WASIThreads({ wasi, childThread: true });
  const instance = instantiate(wasi, wasiThreads, wasmModule, wasmMemory);
  wasiThreads.setup(instance, wasmModule, wasmMemory);
  // instantiated first (run-node.mjs says why); main runs once the pool is loaded
  parentPort.postMessage({ npmWasiInstantiated: true });
  Atomics.wait(workerData.poolReady, 0, 0);
  let exitCode;
  let trap = null;
  try {
    exitCode = wasi.start(instance);
  } catch (err) {
    trap = String(err?.stack ?? err);
    exitCode = 134;
  }
  parentPort.postMessage({ npmWasiExit: { exitCode, trap } });
} else {
  const handler = new ThreadMessageHandler({
    onLoad({ wasmModule, wasmMemory }) {
      const wasi = newWasi();
      const wasiThreads = new WASIThreads({ wasi, childThread: true });
      const instance = instantiate(wasi, wasiThreads, wasmModule, wasmMemory);
      // initialize, never start, in a child thread (emnapi's rule)
      return { module: wasmModule, instance: wasiThreads.initialize(instance, wasmModule, wasmMemory) };
    },
    onError(err, type) {
      writeSync(2, `npm-wasi: worker failed on '${type}': ${err?.stack ?? err}\n`);
      throw err;
    },
  });
  parentPort.on('message', (data) => handler.handle({ data }));
}
