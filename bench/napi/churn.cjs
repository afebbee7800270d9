// One run of the napi-rs addon's allocation benchmark (tests/napi/addon, alloc_churn): loads the
// addon WASM through tests/napi/loader.cjs (@napi-rs/wasm-runtime) and prints the time the
// function measured itself, without the load: `RESULT {"ms":...,"checksum":...}`.
//
//   node bench/napi/churn.cjs ADDON.wasm THREADS ITERATIONS
const { load } = require('../../tests/napi/loader.cjs');

const [wasmPath, threads, iterations] = process.argv.slice(2);
if (!wasmPath || !(Number(threads) > 0) || !(Number(iterations) > 0)) {
  throw new Error('usage: churn.cjs ADDON.wasm THREADS ITERATIONS');
}
const { ms, checksum } = load(wasmPath).allocChurn(Number(threads), Number(iterations));
process.stdout.write(`RESULT ${JSON.stringify({ ms, checksum })}\n`);
