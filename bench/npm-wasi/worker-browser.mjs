// A worker of the npm WASI host baseline in a browser (page.mjs): a pthread (emnapi's
// ThreadMessageHandler) or, with role 'main', the C main. As in Node (worker.mjs), each worker
// has its own WASI object, so its own fd table, and its file calls are proxied to the page's
// main thread (createFsProxy), which owns the memfs volume.
import { ThreadMessageHandler, WASIThreads } from '../../node_modules/@emnapi/wasi-threads/dist/wasi-threads.mjs';
import { createFsProxy } from '../../node_modules/@napi-rs/wasm-runtime/fs-proxy.js';
import { memfsExported } from '../../node_modules/@napi-rs/wasm-runtime/dist/fs.js';
import { WASI } from '../../node_modules/@tybys/wasm-util/dist/wasm-util.esm.js';

const fs = createFsProxy(memfsExported);
const out = (fd) => (text) => postMessage({ npmWasiPrint: { fd, text } });
let handler = null;

function setUp({ role, args, env, wasmModule, wasmMemory, poolReady }) {
  const newWasi = (options = {}) => new WASI({ version: 'preview1', args, env, fs, preopens: { '/': '/' },
    print: out(1), printErr: out(2), ...options });
  const instantiate = (wasi, wasiThreads, module, memory) => new WebAssembly.Instance(module, {
    env: { memory }, wasi_snapshot_preview1: wasi.wasiImport, ...wasiThreads.getImportObject(),
  });
  if (role === 'main') {
    const wasi = newWasi({ returnOnExit: true });
    const wasiThreads = new WASIThreads({ wasi, childThread: true });
    const instance = instantiate(wasi, wasiThreads, wasmModule, wasmMemory);
    wasiThreads.setup(instance, wasmModule, wasmMemory);
    // instantiated first (page.mjs says why); main runs once the pool is loaded
    postMessage({ npmWasiInstantiated: true });
    Atomics.wait(poolReady, 0, 0);
    let exitCode; let trap = null;
    try {
      exitCode = wasi.start(instance);
    } catch (err) {
      trap = String(err?.stack ?? err);
    }
    postMessage({ npmWasiExit: { exitCode, trap } });
    return;
  }
  handler = new ThreadMessageHandler({
    onLoad({ wasmModule: module, wasmMemory: memory }) {
      const wasi = newWasi();
      const wasiThreads = new WASIThreads({ wasi, childThread: true });
      return { module, instance: wasiThreads.initialize(instantiate(wasi, wasiThreads, module, memory), module, memory) };
    },
    onError(err, type) {
      postMessage({ npmWasiPrint: { fd: 2, text: `npm-wasi: worker failed on '${type}': ${err?.stack ?? err}` } });
      throw err;
    },
  });
}

onmessage = (e) => {
  if (e.data?.npmWasiInit) setUp(e.data.npmWasiInit);
  else handler?.handle(e);
};
