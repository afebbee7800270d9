// cli/browser/unique-module.js: the bench's --as-user browser runs give each run's module bytes of their
// own, so that V8 compiles it anew; the module must stay valid and do the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uniqueModule } from '../cli/browser/unique-module.js';

// (module (func (export "answer") (result i32) i32.const 42))
const module = Buffer.from('0061736d010000000105016000017f03020100070a0106616e7377657200000a06010400412a0b', 'hex');

describe('uniqueModule', () => {
  it('adds a custom section naming the run, and the module still runs', () => {
    const bytes = uniqueModule(module, 'run-300');
    const compiled = new WebAssembly.Module(bytes);
    const sections = WebAssembly.Module.customSections(compiled, 'spindle.run');
    assert.deepEqual(sections.map((s) => Buffer.from(s).toString()), ['run-300']);
    assert.equal(new WebAssembly.Instance(compiled).exports.answer(), 42);
  });

  it('gives two runs different bytes, with a section size past one LEB128 byte', () => {
    const long = 'x'.repeat(200);
    assert.notDeepEqual(uniqueModule(module, 1), uniqueModule(module, 2));
    const compiled = new WebAssembly.Module(uniqueModule(module, long));
    assert.equal(Buffer.from(WebAssembly.Module.customSections(compiled, 'spindle.run')[0]).toString(), long);
  });
});
