// Each pthread's worker compiles a module of its own where the program runs Liftoff code
// (host/program/thread-module.js): V8's tier-up counters are per compiled module, shared by every
// instance, and threads running the same Liftoff loop wrote the same cache lines all the time.
// The bench's malloc ring (a module's first run, 2 threads) is where the time shows
// (docs/HOST.md, "Thirteenth pass"); here: which runs get their own modules, and what they are.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { compile } from '../host/index.js';
import { runsDefaults } from '../host/compile/compilation.js';
import { threadModule } from '../host/program/thread-module.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'thread-module');

describe('a module of its own for each pthread\'s worker', () => {
  let bytes;
  before(async () => {
    mkdirSync(out, { recursive: true });
    const wasm = join(out, 'ring.wasm');
    const r = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'bench', 'alloc', 'ref_workload.c'), '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
    bytes = readFileSync(wasm);
  });

  it('compiles the program\'s bytes with a section naming the slot, the same for the same slot', () => {
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
    shared.set(bytes);
    const program = new WebAssembly.Module(bytes);
    assert.equal(threadModule({ module: program, slot: 3 }), program, 'no bytes: the program\'s module');
    const own = threadModule({ module: program, moduleBytes: shared, slot: 3 });
    assert.notEqual(own, program);
    const [tag] = WebAssembly.Module.customSections(own, 'spindle.thread');
    assert.equal(new TextDecoder().decode(tag), '3');
    assert.deepEqual(WebAssembly.Module.exports(own), WebAssembly.Module.exports(program));
    assert.deepEqual(WebAssembly.Module.imports(own), WebAssembly.Module.imports(program));
  });

  it('is asked for where the module runs Liftoff code, and such a run\'s threads each compute what one thread does', async () => {
    const lazy = await compile(bytes, { codeCache: false });
    assert.equal(lazy.threadModuleBytes !== null, lazy.tiers === 'tiered', `${lazy.tiers}: ${lazy.tiersReason}`);
    if (runsDefaults()) assert.deepEqual(Buffer.from(lazy.threadModuleBytes), bytes);
    // (--code-cache=off: no TurboFan code, each thread's worker compiles its own module)
    const sums = [];
    for (const threads of ['1', '2', '3']) {
      const r = await exec(join(root, 'bin', 'spindle'), ['run', '--code-cache=off', join(out, 'ring.wasm'), threads, '300000']);
      assert.equal(r.code, 0, r.stderr);
      sums.push(/checksum (\d+)/.exec(r.stdout)?.[1]);
    }
    // (each thread's ring adds the same sum)
    assert.ok(sums[0] !== undefined);
    assert.deepEqual(sums.map(Number), [1, 2, 3].map((n) => n * Number(sums[0])));
  });
});
