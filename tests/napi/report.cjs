// Loads the napi-rs addon WASM through loader.cjs, calls each of its functions with fixed
// arguments and prints one JSON line of what they returned (tests/napi.test.js compares the
// builds' lines). Files go to a fresh directory under DIR.
//
//   node tests/napi/report.cjs ADDON.wasm DIR
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { load } = require('./loader.cjs');

const [wasmPath, dir] = process.argv.slice(2);
if (!wasmPath || !dir) throw new Error('usage: report.cjs ADDON.wasm DIR');
const addon = load(wasmPath);
const files = join(mkdtempSync(join(dir, 'files-')), 'out');
const report = {
  sum: addon.parallelSum(1000000, 2),
  written: addon.writeFiles(files, 24, 2),
  read: addon.readFiles(files, 2),
  churn: [1, 2].map((threads) => addon.allocChurn(threads, 20000).checksum),
  poolThreads: addon.poolThreads(),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
