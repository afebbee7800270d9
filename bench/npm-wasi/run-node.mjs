#!/usr/bin/env node
// The npm WASI host baseline of the file-system benchmarks: runs an unmodified
// wasm32-wasip1-threads command (built with `spindle cc --bare`, so wasi-libc's own file calls
// and no Spindle runtime) the way JavaScript hosts from npm run threaded WASI modules today:
// @tybys/wasm-util's WASI (the one @napi-rs/wasm-runtime re-exports) with an in-memory memfs
// volume (@napi-rs/wasm-runtime/fs), threads from @emnapi/wasi-threads, and each worker's file
// calls proxied to the Node main thread with @napi-rs/wasm-runtime's createFsProxy /
// createOnMessage, as napi-rs's generated loaders do.
//
//   node bench/npm-wasi/run-node.mjs [--c-main=main|worker] [--stats] app.wasm [args...]
//
// --c-main=main (default): the C main runs on the Node main thread, which also owns the memfs
//   volume and serves the workers' proxied calls, but only while it is not running wasm: a
//   pthread's file call while main blocks in pthread_join never gets an answer. A watchdog sees
//   such a call unserved for 3 s and ends the run with a line `NA deadlock: ...` on stdout and
//   exit code 3 (the bench reports the point as n/a, with that reason).
// --c-main=worker: the C main runs on a worker too; the Node main thread only serves file calls
//   and thread spawns, and never blocks.
// Either way a worker's readdir of a large directory cannot be answered: createFsProxy's answer
//   holds at most 10240 bytes (memfs's Dirents as JSON); the run then ends with `NA payload
//   overflow: ...` and exit code 3 too.
// --stats: at the end, print to stderr what memfs served (calls, bytes written and read).
// --preopen=/DIR: also preopen the memfs directory /DIR (created empty) on every thread, as
//   its own WASI preopen beside "/" (a `spindle cc --host=wasi` module mounts it: docs/PORTABLE.md).
//
// The module needs malloc and free exported (-Wl,--export=malloc,--export=free): emnapi's
// thread-spawn allocates its result slot with them.
import { readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WASIThreads } from '@emnapi/wasi-threads';
import { WASI, createOnMessage } from '@napi-rs/wasm-runtime';
import { memfs } from '@napi-rs/wasm-runtime/fs';
import { importedMemory } from '../../host/compile/module-info.js';

const here = dirname(fileURLToPath(import.meta.url));
const DEADLOCK_MS = 3000;
const POOL = 4; // workers started before main runs (emnapi's reuseWorker), enough for every fs bench

const argv = process.argv.slice(2);
let cMain = 'main'; let stats = false; const preopens = { '/': '/' };
while (argv[0]?.startsWith('--')) {
  const arg = argv.shift();
  if (arg === '--c-main=main' || arg === '--c-main=worker') cMain = arg.slice('--c-main='.length);
  else if (arg === '--stats') stats = true;
  else if (arg.startsWith('--preopen=/')) preopens[arg.slice('--preopen='.length)] = arg.slice('--preopen='.length);
  else throw new Error(`unknown option ${arg}`);
}
if (!argv.length) throw new Error('usage: run-node.mjs [--c-main=main|worker] [--stats] app.wasm [args...]');
const [wasmPath, ...programArgs] = argv;
const bytes = readFileSync(wasmPath);
const wasmModule = new WebAssembly.Module(bytes);
const limits = importedMemory(bytes);
if (!limits?.shared) throw new Error(`${wasmPath}: not a wasm32-wasip1-threads module (no imported shared memory)`);
const wasmMemory = new WebAssembly.Memory({ initial: limits.initial, maximum: limits.maximum, shared: true });
const args = [wasmPath.split('/').pop(), ...programArgs];
const env = {};

// The in-memory file system, on this thread. /tmp exists, as on the other hosts.
const { fs } = memfs();
fs.mkdirSync('/tmp');
const counts = { calls: 0, proxied: 0, written: 0, read: 0 };
const counted = new Proxy(fs, {
  get(target, name) {
    const f = target[name];
    if (typeof f !== 'function' || !String(name).endsWith('Sync')) return f; // classes (Stats...) as they are
    return (...callArgs) => {
      counts.calls++;
      const r = f.apply(target, callArgs);
      if (name === 'writeSync' && typeof r === 'number') counts.written += r;
      if (name === 'readSync' && typeof r === 'number') counts.read += r;
      return r;
    };
  },
});
const serveFs = createOnMessage(counted);
// proxied file calls in flight (workers add 1 while one waits), and how many this thread served
const pending = new SharedArrayBuffer(4);
const served = new Int32Array(new SharedArrayBuffer(4));
for (const dir of Object.keys(preopens)) fs.mkdirSync(dir, { recursive: true });
const workerData = { args, env, pending, preopens };
const out = (fd) => (line) => writeSync(fd, `${line}\n`);

function onWorkerMessage(data) {
  if (data?.__fs__) {
    counts.proxied++;
    serveFs({ data });
    Atomics.add(served, 0, 1);
  }
}

const wasi = new WASI({ version: 'preview1', args, env, fs: counted, preopens, returnOnExit: true,
  print: out(1), printErr: out(2) });
const wasiThreads = new WASIThreads({
  wasi,
  reuseWorker: { size: POOL, strict: false },
  waitThreadStart: false,
  onCreateWorker() {
    const worker = new Worker(join(here, 'worker.mjs'), { workerData });
    worker.on('message', onWorkerMessage);
    return worker;
  },
});

// The watchdog: a worker of its own, since the main thread may be the one that is stuck.
function startWatchdog() {
  const code = `
    const { workerData: { pending, served, ms } } = require('node:worker_threads');
    const { writeSync } = require('node:fs');
    const p = new Int32Array(pending); const s = new Int32Array(served);
    let last = -1; let since = Date.now();
    setInterval(() => {
      const now = Atomics.load(s, 0);
      if (Atomics.load(p, 0) === 0 || now !== last) { last = now; since = Date.now(); return; }
      if (Date.now() - since < ms) return;
      writeSync(1, 'NA deadlock: a worker\\'s file call, proxied to the Node main thread, got no answer for ' + ms / 1000 + ' s: the main thread runs the C main and is blocked (pthread_join/Atomics.wait), so it cannot serve it\\n');
      process.kill(process.pid, 'SIGKILL');
    }, 100);`;
  const w = new Worker(code, { eval: true, workerData: { pending, served: served.buffer, ms: DEADLOCK_MS } });
  w.unref();
}

function notAvailable(reason) {
  writeSync(1, `NA ${reason}\n`);
  process.exit(3);
}
const overflow = 'payload overflow: a worker\'s readdir answer (memfs Dirents as JSON) is larger than the 10240 bytes ' +
  'createFsProxy can carry back, so wasi-libc\'s opendir/readdir cannot list this directory from a worker';
// A pthread's error reaches this thread as an uncaught exception (emnapi rethrows it).
process.on('uncaughtException', (err) => {
  if (/payload overflow/.test(String(err?.message ?? err))) notAvailable(overflow);
  process.stderr.write(`npm-wasi: ${err?.stack ?? err}\n`);
  process.exit(1);
});

function finish(exitCode) {
  if (stats) {
    process.stderr.write(`npm-wasi: c-main=${cMain} memfs calls ${counts.calls} (${counts.proxied} proxied from workers), ` +
      `bytes written ${counts.written}, read ${counts.read}\n`);
  }
  wasiThreads.PThread.terminateAllThreads();
  process.exit(exitCode);
}

startWatchdog();
if (cMain === 'main') {
  const instance = new WebAssembly.Instance(wasmModule, {
    env: { memory: wasmMemory }, wasi_snapshot_preview1: wasi.wasiImport, ...wasiThreads.getImportObject(),
  });
  wasiThreads.setup(instance, wasmModule, wasmMemory);
  await wasiThreads.preloadWorkers();
  const exitCode = wasiThreads.start(instance, wasmModule, wasmMemory).exitCode;
  // Serve what is left (a pthread's calls after main returned), then leave.
  setImmediate(() => finish(exitCode));
} else {
  // This thread never runs wasm: emnapi's thread-spawn only reads malloc/free from the
  // instance on the old ABI, which the spawning worker handles itself.
  // The C main's instance comes first, as in a real wasi-threads start: the first instance of
  // the module initializes memory and gives the main thread its TLS block; an instance made
  // after the pool's had its TLS at address 0. The main worker waits on `poolReady` until the
  // pool is loaded, then runs main.
  wasiThreads.setup({ exports: {} }, wasmModule, wasmMemory);
  const poolReady = new Int32Array(new SharedArrayBuffer(4));
  const main = new Worker(join(here, 'worker.mjs'), { workerData: { ...workerData, role: 'main', wasmModule, wasmMemory, poolReady } });
  main.on('message', async (data) => {
    const type = data?.__emnapi__?.type;
    if (data?.npmWasiInstantiated) {
      await wasiThreads.preloadWorkers();
      Atomics.store(poolReady, 0, 1);
      Atomics.notify(poolReady, 0);
    } else if (data?.npmWasiExit) {
      if (/payload overflow/.test(data.npmWasiExit.trap ?? '')) notAvailable(overflow);
      if (data.npmWasiExit.trap) process.stderr.write(`npm-wasi: C main trapped: ${data.npmWasiExit.trap}\n`);
      finish(data.npmWasiExit.exitCode);
    } else if (type === 'spawn-thread') {
      wasiThreads.threadSpawn(data.__emnapi__.payload.startArg, data.__emnapi__.payload.errorOrTid);
    } else if (type === 'terminate-all-threads') {
      wasiThreads.PThread.terminateAllThreads();
    } else onWorkerMessage(data);
  });
  main.on('error', (err) => { process.stderr.write(`npm-wasi: C main worker failed: ${err.stack ?? err}\n`); finish(134); });
}
