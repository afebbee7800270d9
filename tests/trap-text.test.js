// Errors read the same in every engine (host/trap-text.js): SpiderMonkey's trap words and stack
// frames map to V8's, checked on its own text and on real traps in Firefox against Chromium.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { failureMessage } from '../host/stack-overflow.js';
import { wasmFrames } from '../host/trap-text.js';
import { browserFlag, testBrowsers } from './lib/browsers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'trap-text');

describe('trap text from SpiderMonkey', () => {
  it('maps its trap words to V8\'s', () => {
    for (const [spiderMonkey, v8] of [['unreachable executed', 'unreachable'], ['index out of bounds', 'memory access out of bounds'],
      ['integer divide by zero', 'divide by zero'], ['indirect call signature mismatch', 'null function or function signature mismatch']]) {
      assert.equal(failureMessage(new WebAssembly.RuntimeError(spiderMonkey)), `trap: ${v8}`);
      assert.equal(failureMessage(new WebAssembly.RuntimeError(v8)), `trap: ${v8}`);
    }
    const tooDeep = Object.assign(new Error('too much recursion'), { name: 'InternalError' });
    assert.equal(failureMessage(tooDeep), 'trap: call stack exhausted');
    assert.equal(failureMessage(new RangeError('Maximum call stack size exceeded')), 'trap: call stack exhausted');
  });

  it('writes its frames as V8 does, without the page\'s URL', () => {
    const stack = ['crash@http://127.0.0.1:4/SECRET/host/thread-worker.js:93:5',
      'app.wasm.crash@http://127.0.0.1:4/SECRET/host/compilation.js line 62 > WebAssembly.compile:wasm-function[33]:0x85b',
      '@http://127.0.0.1:4/SECRET/host/compilation.js line 62 > WebAssembly.compile:wasm-function[7]:0x1a'].join('\n');
    assert.deepEqual(wasmFrames(stack), ['at app.wasm.crash (wasm-function[33]:0x85b)', 'at wasm-function[7]:0x1a']);
    const v8 = '    at app.wasm.crash (wasm://wasm/app.wasm-0001:wasm-function[33]:0x85b)';
    assert.deepEqual(wasmFrames(`RuntimeError: unreachable\n${v8}`), [v8.trim()]);
  });
});

describe('traps in Firefox read as in Chromium', { skip: !(testBrowsers.includes('firefox') && testBrowsers.includes('chromium')) }, () => {
  const programs = ['abort_main', 'trap_in_thread'];
  before(async () => {
    mkdirSync(out, { recursive: true });
    for (const name of programs) {
      const r = await exec(spindle, ['cc', '-O2', '-pthread', '--keep-names', join(root, 'tests', 'programs', `${name}.c`), '-o', join(out, `${name}.wasm`)]);
      assert.equal(r.code, 0, r.stderr);
    }
  });

  // V8 names the module in a frame's location, SpiderMonkey does not: compare without it
  const withoutModule = (text) => text.replace(/\(wasm:\/\/wasm\/[^:]+:wasm-function/g, '(wasm-function');
  for (const name of programs) {
    it(name, async () => {
      const [chromium, firefox] = await Promise.all(['chromium', 'firefox'].map((b) => exec(spindle, ['run', browserFlag(b), join(out, `${name}.wasm`)])));
      assert.equal(firefox.code, 134);
      assert.equal(firefox.code, chromium.code);
      assert.match(firefox.stderr, /^spindle: thread (main|1): trap: unreachable\\n {4}at \w+\.wasm\.(abort|crash) \(wasm-function\[/);
      assert.equal(firefox.stderr, withoutModule(chromium.stderr));
    });
  }
});
