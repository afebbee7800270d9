// A thread of the napi-rs addon (addon-worker.mjs starts one per thread it spawns): the same
// module and memory, driven by emnapi's MessageHandler, with its own WASI over the page's memfs
// volume (the addon worker's env and preopens), as napi-rs's generated `wasi-worker-browser.mjs`
// does. createFsProxy posts each file call with the global postMessage and waits for the answer;
// posted to this worker's parent, the call would wait for the addon's worker, which is itself
// waiting for this thread. So file calls go to the page through the port the parent sends
// first; every other message to the parent.
import { createFsProxy, getDefaultContext, instantiateNapiModuleSync, MessageHandler, WASI } from '@napi-rs/wasm-runtime';
import { memfsExported } from '@napi-rs/wasm-runtime/fs';
import { importsWithMemory } from '../napi-options.cjs';

const toParent = globalThis.postMessage.bind(globalThis);
let fsPort = null;
let env = {};
let preopens = {};
globalThis.postMessage = (message, transfer) => (message?.__fs__ ? fsPort.postMessage(message) : toParent(message, transfer));

const handler = new MessageHandler({
  onLoad({ wasmModule, wasmMemory }) {
    const wasi = new WASI({ version: 'preview1', env, fs: createFsProxy(memfsExported), preopens });
    return instantiateNapiModuleSync(wasmModule, {
      childThread: true,
      wasi,
      context: getDefaultContext(),
      overwriteImports: importsWithMemory(wasmMemory),
    });
  },
});
onmessage = (e) => {
  if (e.data?.fsPort) ({ fsPort, env, preopens } = e.data);
  else handler.handle(e);
};
