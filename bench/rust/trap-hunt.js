#!/usr/bin/env node
// Runs many short 2-thread allocation-churn runs of bench/rust in one Node process (host API,
// the module compiled once) and counts the runs that trapped or exited non-zero, for the
// default Rust build (wasi-libc's dlmalloc) and the spindle cargo build. Not part of the test
// suite (minutes): `node bench/rust/trap-hunt.js [--runs=500] [--iters=20000]`.
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, runProgram } from '../../host/index.js';
import { buildAll } from './suites.js';

const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const runs = option('runs', 500);
const iters = option('iters', 20000);
const devNull = openSync('/dev/null', 'w');
const builds = buildAll(join(import.meta.dirname, '..', '..', 'build', 'bench', 'rust'), { wasmOnly: true });

for (const [variant, wasm] of Object.entries(builds)) {
  const compiled = await compile(readFileSync(wasm));
  const failures = new Map();
  for (let i = 0; i < runs; i++) {
    const r = await runProgram(compiled, { args: ['rust-bench', 'churn', '2', String(iters)], stdout: devNull });
    if (r.exitCode !== 0 || r.trap) {
      const why = r.trap ? r.trap.split('\n')[0] : `exit ${r.exitCode}`;
      failures.set(why, (failures.get(why) ?? 0) + 1);
    }
  }
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`${variant}: ${failed} of ${runs} runs failed${failed ? `: ${JSON.stringify(Object.fromEntries(failures))}` : ''}\n`);
}
