// host/compile/liftoff-wait-calls.js: each memory.atomic.wait becomes a call of a function doing only
// that wait, so Node 20's Liftoff keeps the caller's values across it (docs/HOST.md). The
// module below keeps a computed local across a wait whose expected value does not match
// (it returns at once), then returns the local: Node 20's Liftoff returned the stale 0.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moveWaitsIntoCalls } from '../host/compile/liftoff-wait-calls.js';
import { concat, uleb } from '../host/compile/wasm-binary.js';
import { liftoffLosesWaitValues } from '../host/compile/wasm-tiers.js';
import { exec } from './lib/exec.js';

const vec = (...items) => concat([Uint8Array.from(uleb(items.length)), ...items.map((i) => Uint8Array.from(i))]);
const section = (id, content) => concat([Uint8Array.of(id), Uint8Array.from(uleb(content.length)), content]);
const name = (text) => [text.length, ...Buffer.from(text)];

// (func (export "f") (param i32) (result i32)
//   local.get 0 i32.const 88 i32.add local.set 0
//   local.get 0 i32.const 7 i64.const 0 memory.atomic.wait32 drop  local.get 0)
const code = [0, 0x20, 0, 0x41, 0xd8, 0, 0x6a, 0x21, 0, 0x20, 0, 0x41, 7, 0x42, 0, 0xfe, 0x01, 2, 0, 0x1a, 0x20, 0, 0x0b];
const keepsLocalAcrossWait = concat([
  Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0),
  section(1, vec([0x60, 1, 0x7f, 1, 0x7f])),
  section(2, vec([...name('env'), ...name('memory'), 2, 3, 1, 1])), // shared memory 1..1
  section(3, vec([0])),
  section(7, vec([...name('f'), 0, 0])),
  section(10, vec([...uleb(code.length), ...code])),
]);

// What f(0) returns when the module is compiled by Liftoff only, in a fresh Node.
async function liftoffResult(bytes) {
  const script = `const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const module = new WebAssembly.Module(Buffer.from('${Buffer.from(bytes).toString('hex')}', 'hex'));
    console.log(new WebAssembly.Instance(module, { env: { memory } }).exports.f(0));`;
  const r = await exec(process.execPath, ['--liftoff-only', '-e', script]);
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

describe('moving waits into calls', () => {
  it('is needed: Node 20 compiles the module as it is wrong', { skip: !liftoffLosesWaitValues() }, async () => {
    assert.equal(await liftoffResult(keepsLocalAcrossWait), 0);
  });

  it('keeps a local across the wait in Liftoff code', async () => {
    const moved = moveWaitsIntoCalls(keepsLocalAcrossWait);
    assert.ok(WebAssembly.validate(moved));
    assert.ok(moved.length > keepsLocalAcrossWait.length);
    assert.equal(await liftoffResult(moved), 88);
  });

  it('returns a module without waits as it is', () => {
    const noWait = keepsLocalAcrossWait.slice();
    // i64.const 0 and the wait become: drop, drop, i32.const 0, nop, nop
    noWait.set([0x1a, 0x1a, 0x41, 0, 0x01, 0x01], keepsLocalAcrossWait.length - 10);
    assert.ok(WebAssembly.validate(noWait));
    assert.equal(moveWaitsIntoCalls(noWait), noWait);
  });

  it('refuses bytes that are not a module with a clear error', () => {
    assert.throws(() => moveWaitsIntoCalls(Uint8Array.of(1, 2, 3)), /not a wasm module/);
  });
});
