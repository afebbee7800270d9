// The napi-rs addon in a dedicated worker of the page (page.mjs): loaded the way napi-rs's
// generated `<name>.wasi-browser.js` loads it (our own equivalent): @tybys/wasm-util's WASI over
// the page's memfs volume (createFsProxy, with `/` preopened, and `/data`), one shared memory of napi-rs's
// size, emnapi's context, a thread worker (thread-worker.mjs) per thread the addon spawns. Here
// the addon's calls may wait for rayon's threads. But a worker that this worker starts does not
// start while this worker waits: so the thread workers are started and loaded beforehand (a pool
// of emnapi's, filled before the addon's first call; with `strict`, a thread beyond it fails
// to spawn instead of hanging), and a thread's worker goes back to the pool only when this
// worker's event loop runs, between calls. Runs plan.cjs (and, when asked, the 2-thread
// allocation benchmark) and posts { outcome } back.
import { createFsProxy, getDefaultContext, instantiateNapiModule, WASI } from '@napi-rs/wasm-runtime';
import { memfsExported } from '@napi-rs/wasm-runtime/fs';
import { importsWithMemory, registerFunctions } from '../napi-options.cjs';
import { runPlan } from '../plan.cjs';

// napi-rs's memory: 4000 pages to start, up to 4 GiB.
const INITIAL_PAGES = 4000;
const MAXIMUM_PAGES = 65536;
// A `spindle cargo --host=wasi` build reads the core count from here (docs/NAPI.md); others ignore it.
const env = { SPINDLE_CPU_COUNT: String(navigator.hardwareConcurrency) };
// napi-rs's loader preopens the volume's root; a Spindle build keeps that one in its own memory
// and mounts a named one, so /data is on the volume for both builds (docs/NAPI.md).
const preopens = { '/': '/', '/data': '/data' };
// plan.cjs's pools (9 threads in all), rayon's global pool (a thread per core) and headroom.
const THREAD_WORKERS = 12 + navigator.hardwareConcurrency;
const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

async function load(bytes) {
  const fs = createFsProxy(memfsExported);
  const wasi = new WASI({ version: 'preview1', env, fs, preopens });
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
  const { napiModule } = await instantiateNapiModule(bytes, {
    context: getDefaultContext(),
    asyncWorkPoolSize: 4,
    reuseWorker: { size: THREAD_WORKERS, strict: true },
    wasi,
    onCreateWorker() {
      const worker = new Worker(new URL('thread-worker.js', import.meta.url), { type: 'module', name: 'napi-thread' });
      // The thread's file calls go to the page through a port of their own: this worker is
      // waiting for the thread while it makes them.
      const { port1, port2 } = new MessageChannel();
      postMessage({ fsPort: port1 }, [port1]);
      worker.postMessage({ fsPort: port2, env, preopens }, [port2]);
      return worker;
    },
    overwriteImports: importsWithMemory(memory),
    beforeInit: registerFunctions,
  });
  return napiModule.exports;
}

onmessage = async ({ data: { wasm, dir, churnRuns, churnThreads, churnIterations } }) => {
  let outcome;
  try {
    const addon = await load(await (await fetch(wasm)).arrayBuffer());
    const churnMs = [];
    for (let i = 0; i < churnRuns; i++) {
      await nextTask(); // the last call's thread workers go back to the pool
      churnMs.push(addon.allocChurn(churnThreads, churnIterations).ms);
    }
    await nextTask();
    outcome = { ...runPlan(addon, dir), churnMs };
  } catch (err) {
    outcome = { error: String(err?.stack ?? err) };
  }
  postMessage({ outcome });
};
