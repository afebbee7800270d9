// The npm WASI host baseline in a browser page (opened by run-browser.mjs): the page's main
// thread owns the memfs volume (@napi-rs/wasm-runtime's bundled memfs) and serves every
// worker's proxied file calls (createOnMessage), as napi-rs's generated browser loaders do;
// threads come from @emnapi/wasi-threads, WASI from @tybys/wasm-util.
//   ?cMain=main    the C main runs on the page's main thread (its "main" points need no thread;
//                  pthread_join there waits with memory.atomic.wait, which a page may not do)
//   ?cMain=worker  the C main runs on a worker; the page only serves file calls and spawns
// The outcome is window.npmWasiDone: { stdout, stderr, exitCode, na? }.
import { WASIThreads } from '../../node_modules/@emnapi/wasi-threads/dist/wasi-threads.mjs';
import { createOnMessage } from '../../node_modules/@napi-rs/wasm-runtime/fs-proxy.js';
import { memfs } from '../../node_modules/@napi-rs/wasm-runtime/dist/fs.js';
import { WASI } from '../../node_modules/@tybys/wasm-util/dist/wasm-util.esm.js';
import { importedMemory } from '../../host/compile/module-info.js';

const POOL = 4;
const q = new URLSearchParams(location.search);
const cMain = q.get('cMain') === 'worker' ? 'worker' : 'main';
const args = JSON.parse(q.get('args') ?? '[]');
const env = {};
let stdout = ''; let stderr = '';
let resolveDone;
window.npmWasiDone = new Promise((resolve) => { resolveDone = resolve; });
let finished = false;
const finish = (outcome) => {
  if (finished) return;
  finished = true;
  const result = { stdout, stderr, cMain, crossOriginIsolated, ...outcome };
  resolveDone(result);
  // run-browser.mjs reads it here (it drives a plain Chromium, no DevTools protocol)
  if (q.get('report')) fetch(q.get('report'), { method: 'POST', body: JSON.stringify(result) });
};
const overflow = 'payload overflow: a worker\'s readdir answer (memfs Dirents as JSON) is larger than the 10240 bytes ' +
  'createFsProxy can carry back, so wasi-libc\'s opendir/readdir cannot list this directory from a worker';
const mainWait = 'the C main runs on the page\'s main thread, where pthread_join\'s memory.atomic.wait is not allowed';
function failure(text) {
  if (/payload overflow/.test(text)) return finish({ na: overflow });
  if (cMain === 'main' && /Atomics\.wait cannot be called|cannot be called in this context/i.test(text)) return finish({ na: `${mainWait} (${text.split('\n')[0]})` });
  return finish({ exitCode: 134, trap: text });
}
addEventListener('error', (e) => failure(String(e.error?.stack ?? e.message ?? e)));
addEventListener('unhandledrejection', (e) => failure(String(e.reason?.stack ?? e.reason)));

try {
  const bytes = await (await fetch(q.get('wasm'))).arrayBuffer();
  const wasmModule = await WebAssembly.compile(bytes);
  const limits = importedMemory(new Uint8Array(bytes));
  const wasmMemory = new WebAssembly.Memory({ initial: limits.initial, maximum: limits.maximum, shared: true });
  const { fs } = memfs();
  fs.mkdirSync('/tmp');
  const serveFs = createOnMessage(fs);
  const print = (text) => { stdout += `${text}\n`; };
  const printErr = (text) => {
    stderr += `${text}\n`;
    if (/payload overflow/.test(text)) failure(text);
  };
  const onWorkerMessage = (data) => {
    if (data?.__fs__) serveFs({ data });
    else if (data?.npmWasiPrint) (data.npmWasiPrint.fd === 1 ? print : printErr)(data.npmWasiPrint.text);
  };
  const workerData = { args, env };
  const wasi = new WASI({ version: 'preview1', args, env, fs, preopens: { '/': '/' }, returnOnExit: true, print, printErr });
  const wasiThreads = new WASIThreads({
    wasi,
    printErr,
    reuseWorker: { size: POOL, strict: false },
    waitThreadStart: false,
    onCreateWorker() {
      const worker = new Worker(new URL('worker-browser.mjs', import.meta.url), { type: 'module', name: 'npm-wasi-thread' });
      worker.addEventListener('message', (e) => onWorkerMessage(e.data));
      worker.postMessage({ npmWasiInit: workerData });
      return worker;
    },
  });
  if (cMain === 'main') {
    const instance = await WebAssembly.instantiate(wasmModule, {
      env: { memory: wasmMemory }, wasi_snapshot_preview1: wasi.wasiImport, ...wasiThreads.getImportObject(),
    });
    wasiThreads.setup(instance, wasmModule, wasmMemory);
    await wasiThreads.preloadWorkers();
    let exitCode;
    try {
      exitCode = wasiThreads.start(instance, wasmModule, wasmMemory).exitCode;
    } catch (err) {
      failure(String(err?.stack ?? err));
    }
    setTimeout(() => finish({ exitCode }), 0);
  } else {
    // The C main's instance comes first, so that its TLS is its own (run-node.mjs says why); it
    // waits on poolReady until the pool is loaded.
    wasiThreads.setup({ exports: {} }, wasmModule, wasmMemory); // this thread never runs wasm
    const poolReady = new Int32Array(new SharedArrayBuffer(4));
    const main = new Worker(new URL('worker-browser.mjs', import.meta.url), { type: 'module', name: 'npm-wasi-main' });
    main.addEventListener('message', async (e) => {
      const data = e.data;
      const type = data?.__emnapi__?.type;
      if (data?.npmWasiInstantiated) {
        await wasiThreads.preloadWorkers();
        Atomics.store(poolReady, 0, 1);
        Atomics.notify(poolReady, 0);
      } else if (data?.npmWasiExit) {
        if (data.npmWasiExit.trap) failure(data.npmWasiExit.trap);
        else finish({ exitCode: data.npmWasiExit.exitCode });
      } else if (type === 'spawn-thread') {
        wasiThreads.threadSpawn(data.__emnapi__.payload.startArg, data.__emnapi__.payload.errorOrTid);
      } else if (type === 'terminate-all-threads') {
        wasiThreads.PThread.terminateAllThreads();
      } else onWorkerMessage(data);
    });
    main.addEventListener('error', (e) => failure(`C main worker: ${e.message}`));
    main.postMessage({ npmWasiInit: { ...workerData, role: 'main', wasmModule, wasmMemory, poolReady } });
  }
} catch (err) {
  failure(String(err?.stack ?? err));
}
