// Spindle's host API, the same in Node and in browsers:
//
//   import { run } from './host/index.js';
//   const { exitCode } = await run(wasmBytesOrUrl, { args: ['app', '-v'], env: { HOME: '/home' } });
//
// `run` = `compile` once + `runProgram`. See host/index.d.ts for every option.
export { compile, createProgram, runProgram } from './program/program.js';
export { startEarlyWorker } from './program/early-worker.js';
import { compile, runProgram } from './program/program.js';

export async function run(source, options = {}) {
  return runProgram(await compile(source, { compilation: options.compilation, codeCache: options.codeCache }), options);
}
