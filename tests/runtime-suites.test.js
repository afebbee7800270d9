// The C runtime's own suites, each a script that ends with "N passed, N failed": native builds
// under AddressSanitizer/UBSan, ThreadSanitizer and libFuzzer, and the same tests as wasm with
// real threads. SPINDLE_TEST_LONG=1 runs the long fuzz/stress variants.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const long = process.env.SPINDLE_TEST_LONG === '1';
const env = { ...process.env, FUZZ_SECONDS: process.env.FUZZ_SECONDS ?? (long ? '600' : '20') };

const suites = [
  ['allocator, native (ASan/UBSan, TSan, fuzz)', 'tests/alloc/run-native.sh', long ? ['--long'] : []],
  ['allocator, wasm in Node and Chromium (1, 2, 4, 16 threads; OOM; dlmalloc not linked)', 'tests/alloc/run-wasm.sh', []],
  // Fresh memory filled at once by several threads, many short runs (docs/ALLOCATOR.md, growth).
  ['memory growth trap hunt, wasm in Node (Spindle and dlmalloc, 2 and 16 threads)', 'tests/alloc/trap-hunt.sh', [long ? '500' : '10']],
  ['filesystem, native (unit, TSan/ASan stress, fuzz, conformance)', 'tests/fs/run-native.sh', []],
  ['filesystem, wasm (unit, stress, ENOSPC, conformance vs Linux)', 'tests/fs/run-wasm.sh', []],
];

describe('runtime suites', () => {
  for (const [name, script, args] of suites) {
    it(name, { skip: !existsSync(join(root, script)) && `${script} missing` }, async () => {
      const r = await exec('bash', [join(root, script), ...args], { env, timeoutMs: 20 * 60 * 1000 });
      const tail = `${r.stdout}\n${r.stderr}`.split('\n').slice(-40).join('\n');
      assert.equal(r.code, 0, `${script} failed:\n${tail}`);
      assert.match(r.stdout, /\d+ passed, 0 failed/, `${script} printed no summary:\n${tail}`);
    });
  }
});
