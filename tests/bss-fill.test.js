// The .bss fill pass (cli/build/bss-fill.js) as spindle cc applies it: a linked module's start
// function no longer zeroes .bss, nothing else in it changes, --bare builds keep the fill, and a
// module whose memory is its own (not imported and shared) is left alone. That the statics still
// read as zeros, in main and in threads, is tests/programs/static_zero_memory.c.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { bssFills, dropBssFill } from '../cli/build/bss-fill.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'bss-fill');
const source = join(root, 'tests', 'programs', 'static_zero_memory.c');

async function build(name, flags) {
  const wasm = join(out, `${name}.wasm`);
  const r = await exec(spindle, ['cc', '-O2', ...flags, source, '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
  return wasm;
}

// (a module with its own memory and a start function that fills it: wasm-ld zeroes such a
// memory's .bss by leaving it out of the data, never with a fill, and one written so must keep it)
const ownMemoryFill = Uint8Array.from([
  0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  1, 4, 1, 0x60, 0, 0, // type: () -> ()
  3, 2, 1, 0, // one function
  5, 3, 1, 0, 1, // memory: 1 page
  8, 1, 0, // start: function 0
  10, 13, 1, 11, 0, 0x41, 0, 0x41, 0, 0x41, 16, 0xfc, 0x0b, 0x00, 0x0b, // i32.const x3, memory.fill
]);

describe('.bss fill pass', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('drops the start function\'s fill from a linked module and changes nothing else', async () => {
    const linked = readFileSync(await build('default', []));
    const bare = await build('bare', ['--bare']);
    assert.deepEqual(bssFills(linked), [], 'spindle cc left the fill in');
    const fills = bssFills(readFileSync(bare));
    assert.equal(fills.length, 1, '--bare keeps wasm-ld\'s start function as it is');
    const copy = join(out, 'bare-dropped.wasm');
    copyFileSync(bare, copy);
    assert.equal(dropBssFill(copy), 1);
    const before = readFileSync(bare);
    const after = readFileSync(copy);
    assert.equal(after.length, before.length);
    const changed = [...after.keys()].filter((i) => after[i] !== before[i]);
    assert.deepEqual(changed, [fills[0], fills[0] + 1, fills[0] + 2]);
    assert.deepEqual([...after.subarray(fills[0], fills[0] + 3)], [0x1a, 0x1a, 0x1a]);
    new WebAssembly.Module(after);
    assert.equal(dropBssFill(copy), 0, 'a second pass finds nothing');
  });

  it('leaves a module alone whose memory is not imported and shared', () => {
    new WebAssembly.Module(ownMemoryFill);
    assert.deepEqual(bssFills(ownMemoryFill), []);
  });
});
