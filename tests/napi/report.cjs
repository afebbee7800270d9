// Loads the napi-rs addon WASM through loader.cjs, runs plan.cjs's calls and prints one JSON
// line of what they returned (tests/napi.test.js compares the builds' lines).
// Files go to a fresh directory under DIR.
//
//   node tests/napi/report.cjs ADDON.wasm DIR
const { mkdtempSync } = require('node:fs');
const { basename, join, parse } = require('node:path');
const { load } = require('./loader.cjs');
const { runPlan } = require('./plan.cjs');

const [wasmPath, dir] = process.argv.slice(2);
if (!wasmPath || !dir) throw new Error('usage: report.cjs ADDON.wasm DIR');
const root = parse(process.cwd()).root;
const addon = load(wasmPath, { preopens: { [root]: root, '/data': dir } });
const files = basename(mkdtempSync(join(dir, 'files-')));
const report = { ...runPlan(addon, `/data/${files}`), files };
process.stdout.write(`${JSON.stringify(report)}\n`);
