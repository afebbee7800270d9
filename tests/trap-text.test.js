// Errors read the same in every engine (host/threads/trap-text.js): SpiderMonkey's and JavaScriptCore's
// trap words and stack frames map to V8's, checked on their own text and on real traps in Firefox
// (and WebKit, where tests/lib/browsers.js runs it) against Chromium.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { failureMessage } from '../host/threads/stack-overflow.js';
import { wasmFrames } from '../host/threads/trap-text.js';
import { browserFlag, runBrowsers, testBrowsers } from './lib/browsers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'trap-text');

describe('trap text from JavaScriptCore', () => {
  it('maps its trap words to V8\'s, without the JS call it names', () => {
    for (const [jsc, v8] of [['Unreachable code should not be executed', 'unreachable'], ['Out of bounds memory access', 'memory access out of bounds'],
      ['Division by zero', 'divide by zero'], ['call_indirect to a signature that does not match', 'null function or function signature mismatch']]) {
      assert.equal(failureMessage(new WebAssembly.RuntimeError(`${jsc} (evaluating 'body()')`)), `trap: ${v8}`);
      assert.equal(failureMessage(new WebAssembly.RuntimeError(jsc)), `trap: ${v8}`);
    }
    assert.equal(failureMessage(new RangeError('Maximum call stack size exceeded.')), 'trap: call stack exhausted');
  });

  it('writes its frames as V8 does', () => {
    const stack = ['crash@trap.wasm:wasm-function[38]', 'main@trap.wasm:wasm-function[39]', '461@<?>:wasm-function[461]',
      'body@http://127.0.0.1:4/SECRET/host/thread-worker.js:93:5'].join('\n');
    assert.deepEqual(wasmFrames(stack), ['at trap.wasm.crash (wasm-function[38])', 'at trap.wasm.main (wasm-function[39])', 'at wasm-function[461]']);
  });
});

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

const programs = ['abort_main', 'trap_in_thread'];
async function buildPrograms() {
  mkdirSync(out, { recursive: true });
  for (const name of programs) {
    const r = await exec(spindle, ['cc', '-O2', '-pthread', '--keep-names', join(root, 'tests', 'programs', `${name}.c`), '-o', join(out, `${name}.wasm`)]);
    assert.equal(r.code, 0, r.stderr);
  }
}

describe('traps in Firefox read as in Chromium', { skip: !(testBrowsers.includes('firefox') && testBrowsers.includes('chromium')) }, () => {
  before(buildPrograms);

  // V8 names the module in a frame's location, SpiderMonkey does not: compare without it (the
  // CLI writes the module's file where the page's frame had the URL it served the module at)
  const withoutModule = (text) => text.replace(/\((?:wasm:\/\/wasm\/[^:]+|[^ ()]+?\.wasm):wasm-function/g, '(wasm-function');
  for (const name of programs) {
    it(name, async () => {
      const [chromium, firefox] = await Promise.all(['chromium', 'firefox'].map((b) => exec(spindle, ['run', browserFlag(b), join(out, `${name}.wasm`)])));
      assert.equal(firefox.code, 134);
      assert.equal(firefox.code, chromium.code);
      // (each frame on a line of its own)
      assert.match(firefox.stderr, /^spindle: thread (main|1): trap: unreachable\n {4}at \w+\.wasm\.(abort|crash) \(wasm-function\[/);
      assert.ok(chromium.stderr.includes(`(${join(out, `${name}.wasm`)}:wasm-function[`), 'the module named by its file');
      assert.equal(firefox.stderr, withoutModule(chromium.stderr));
    });
  }
});

describe('traps in WebKit read as in Chromium', { skip: !(runBrowsers.includes('webkit') && runBrowsers.includes('chromium')) }, () => {
  before(buildPrograms);

  // V8 names the module in a frame's location and gives the code offset, JavaScriptCore neither
  const withoutLocation = (text) => text.replace(/\((?:wasm:\/\/wasm\/[^:]+|[^ ()]+?\.wasm):(wasm-function\[\d+\]):0x[0-9a-f]+\)/g, '($1)');
  for (const name of programs) {
    it(name, async () => {
      const [chromium, webkit] = await Promise.all(['chromium', 'webkit'].map((b) => exec(spindle, ['run', browserFlag(b), join(out, `${name}.wasm`)])));
      assert.equal(webkit.code, 134);
      assert.equal(webkit.code, chromium.code);
      assert.match(webkit.stderr, /^spindle: thread (main|1): trap: unreachable\n {4}at (\w+\.wasm\.(abort|crash) \()?wasm-function\[\d+\]\)?/);
      // JavaScriptCore sometimes leaves out the names of frames (seen for main and _start in 1
      // run of 4, for the top frame, abort, in 1 CI run, and for every frame in another, which
      // then adds the CLI's hint about names): compare frames by function index
      const unnamed = (text) => text.replace(/at \S+ \((wasm-function\[\d+\])\)/g, 'at $1').replace(/\n {4}\(no function names: [^\n]*\)/, '');
      assert.equal(unnamed(webkit.stderr), unnamed(withoutLocation(chromium.stderr)));
    });
  }
});
