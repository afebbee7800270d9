// A thread of a napi-rs addon loaded by loader.cjs: the same module and memory, its own node:wasi
// (the main thread's preopens), driven by emnapi's MessageHandler.
import { WASI } from 'node:wasi';
import { parentPort, workerData } from 'node:worker_threads';
import { MessageHandler, getDefaultContext, instantiateNapiModuleSync } from '@napi-rs/wasm-runtime';
import napiOptions from './napi-options.cjs';

const { importsWithMemory } = napiOptions;

// emnapi talks to the parent through a global postMessage, as in a browser worker.
globalThis.postMessage = (message) => parentPort.postMessage(message);

const handler = new MessageHandler({
  onLoad({ wasmModule, wasmMemory }) {
    const wasi = new WASI({ version: 'preview1', env: process.env, preopens: workerData.preopens });
    return instantiateNapiModuleSync(wasmModule, {
      childThread: true,
      wasi,
      context: getDefaultContext(),
      overwriteImports: importsWithMemory(wasmMemory),
    });
  },
});
parentPort.on('message', (data) => handler.handle({ data }));
