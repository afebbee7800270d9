// Loads a napi-rs wasm32-wasip1-threads addon in Node through @napi-rs/wasm-runtime, the way the
// `<name>.wasi.cjs` file that napi-rs generates for a package does (our own equivalent): node:wasi
// with the file system's root preopened, one shared memory, and a worker (loader-worker.mjs) per
// thread the addon spawns. Used for the default build and the `spindle cargo --host=wasi` build
// alike (docs/NAPI.md).
//
//   const addon = require('./loader.cjs').load('/path/to/addon.wasm');
//   load(wasm, { preopens: { '/data': hostDir } })   // other preopens than napi-rs's root
const { readFileSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join, parse } = require('node:path');
const { WASI } = require('node:wasi');
const { Worker } = require('node:worker_threads');
const { getDefaultContext, instantiateNapiModuleSync } = require('@napi-rs/wasm-runtime');
const { importsWithMemory, registerFunctions } = require('./napi-options.cjs');

// napi-rs's memory: 4000 pages to start (the addon's 64 MiB stack fits), up to 4 GiB.
const INITIAL_PAGES = 4000;
const MAXIMUM_PAGES = 65536;
const ROOT = parse(process.cwd()).root;
// The core count for a `spindle cargo --host=wasi` build, whose sysconf (and so rayon's global
// pool) reads it from the environment: WASI has no call for it. Other builds ignore it.
const ENV = { SPINDLE_CPU_COUNT: String(availableParallelism()), ...process.env };

/** Instantiates the addon at `wasmPath` and returns its exports. */
function load(wasmPath, { preopens = { [ROOT]: ROOT } } = {}) {
  const wasi = new WASI({ version: 'preview1', env: ENV, preopens });
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
  const { napiModule } = instantiateNapiModuleSync(readFileSync(wasmPath), {
    context: getDefaultContext(),
    asyncWorkPoolSize: 4,
    reuseWorker: true,
    wasi,
    onCreateWorker() {
      const worker = new Worker(join(__dirname, 'loader-worker.mjs'), { env: ENV, workerData: { preopens } });
      // Rust's threads are never joined: they must not keep Node from exiting.
      worker.unref();
      return worker;
    },
    overwriteImports: importsWithMemory(memory),
    beforeInit: registerFunctions,
  });
  return napiModule.exports;
}

module.exports = { load };
