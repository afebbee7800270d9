// The compile hints `spindle run --browser` serves modules with in Chromium (cli/browser/optimize-hints.js):
// a metadata.code.compilation_priority section before the code section that asks for every
// function the module defines to be optimized, in the format V8 decodes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { COMPILATION_PRIORITY_SECTION, compilationPrioritySection, HINTED_CODE_LIMIT_BYTES, offsetsInFile, withOptimizeHints } from '../cli/browser/optimize-hints.js';
import { moduleLayout, Reader, sections, uleb } from '../host/compile/wasm-binary.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'optimize-hints');

/** The hints of `bytes`' compilation-priority section: [{ func, offset, priorities }], and where it is. */
function readHints(bytes) {
  const list = sections(bytes);
  const at = list.findIndex((s) => s.name === COMPILATION_PRIORITY_SECTION);
  if (at < 0) return null;
  const r = new Reader(bytes, list[at].start);
  r.name();
  const hints = [];
  for (let n = r.u32(), i = 0; i < n; i++) {
    const func = r.u32();
    const offset = r.u32();
    const end = r.u32() + r.pos;
    const priorities = [];
    while (r.pos < end) priorities.push(r.u32());
    hints.push({ func, offset, priorities });
  }
  assert.equal(r.pos, list[at].end, 'bytes left at the end of the section');
  return { hints, index: at, codeIndex: list.findIndex((s) => s.id === 10) };
}

// (type () -> (), one imported function, two defined ones)
const small = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  1, 4, 1, 0x60, 0, 0,
  2, 7, 1, 1, 0x6d, 1, 0x66, 0, 0,
  3, 3, 2, 0, 0,
  10, 7, 2, 2, 0, 0x0b, 2, 0, 0x0b]);

describe('the optimize hints', () => {
  let program;
  before(async () => {
    mkdirSync(out, { recursive: true });
    program = join(out, 'hello.wasm');
    const r = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'bench', 'startup', 'hello.c'), '-o', program]);
    assert.equal(r.code, 0, r.stderr);
  });

  it('hint every defined function, imports counted first, optimized with priority 0, before the code section', () => {
    const { bytes: hinted, inserted } = withOptimizeHints(small);
    assert.ok(WebAssembly.validate(hinted));
    const { hints, index, codeIndex } = readHints(hinted);
    assert.equal(index, codeIndex - 1);
    assert.deepEqual(inserted, { at: small.length - 9, size: hinted.length - small.length });
    assert.deepEqual(hints, [{ func: 1, offset: 0, priorities: [0, 0] }, { func: 2, offset: 0, priorities: [0, 0] }]);
  });

  it('leave a program as it was but for the section: its functions, imports, exports and other sections', () => {
    const bytes = new Uint8Array(readFileSync(program));
    const hinted = withOptimizeHints(bytes).bytes;
    assert.ok(WebAssembly.validate(hinted));
    const layout = moduleLayout(bytes, sections(bytes));
    const { hints } = readHints(hinted);
    assert.equal(hints.length, layout.bodies.length);
    assert.deepEqual(hints.map((h) => h.func), layout.bodies.map((_, i) => layout.importedFuncs + i));
    const [a, b] = [bytes, hinted].map((m) => new WebAssembly.Module(m));
    assert.deepEqual(WebAssembly.Module.imports(b), WebAssembly.Module.imports(a));
    assert.deepEqual(WebAssembly.Module.exports(b), WebAssembly.Module.exports(a));
    const kept = (m) => sections(m).filter((s) => s.name !== COMPILATION_PRIORITY_SECTION).map((s) => Buffer.from(m.subarray(s.start, s.end)).toString('base64'));
    assert.deepEqual(kept(hinted), kept(bytes));
  });

  it('are not added to a module with hints of its own, without code, over the size limit, or not a module', () => {
    const own = withOptimizeHints(small).bytes;
    assert.deepEqual(withOptimizeHints(own), { bytes: own, inserted: null });
    const noCode = small.subarray(0, small.length - 9);
    assert.deepEqual(withOptimizeHints(noCode), { bytes: noCode, inserted: null });
    const notModule = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(withOptimizeHints(notModule), { bytes: notModule, inserted: null });
    // one function of HINTED_CODE_LIMIT_BYTES of `nop`s
    const body = [0, ...new Array(HINTED_CODE_LIMIT_BYTES).fill(1), 0x0b];
    const code = [1, ...uleb(body.length), ...body];
    const big = new Uint8Array([...small.subarray(0, 8), 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 10, ...uleb(code.length), ...code]);
    assert.ok(WebAssembly.validate(big));
    assert.equal(withOptimizeHints(big).inserted, null);
  });

  it('leave a trap\'s offsets as they are in the file: frames past the section move back by its size', () => {
    const inserted = { at: 0x100, size: 0x20 };
    const trap = 'trap: unreachable\n    at m.wasm.f (wasm-function[3]:0x1a4)\n    at g@http://x/m.wasm:wasm-function[4]:0x130\n    at wasm-function[5]:0x0fc';
    assert.equal(offsetsInFile(trap, inserted), 'trap: unreachable\n    at m.wasm.f (wasm-function[3]:0x184)\n    at g@http://x/m.wasm:wasm-function[4]:0x110\n    at wasm-function[5]:0x0fc');
    assert.equal(offsetsInFile(trap, null), trap);
  });

  it('encode indices of any size as LEB128, increasing', () => {
    const { hints } = readHints(new Uint8Array([...small.subarray(0, 8), ...compilationPrioritySection(126, 4)]));
    assert.deepEqual(hints.map((h) => h.func), [126, 127, 128, 129]);
  });

  // V8 drops a section it cannot decode whole, and says why only when tracing: Node's V8 (14.6 in
  // Node 26) has the same decoder as Chromium's, behind --experimental-wasm-compilation-hints.
  it('decode in V8 without an error', (t) => {
    const flags = ['--experimental-wasm-compilation-hints', '--trace-wasm-compilation-hints'];
    const known = spawnSync(process.execPath, [...flags, '-e', '0'], { encoding: 'utf8' });
    if (known.status !== 0) return t.skip(`Node ${process.versions.node} has no ${flags[0]}`);
    const compile = (path) => spawnSync(process.execPath, [...flags, '-e', `new WebAssembly.Module(require('fs').readFileSync(${JSON.stringify(path)}))`], { encoding: 'utf8' });
    const hinted = join(out, 'hello-hinted.wasm');
    writeFileSync(hinted, withOptimizeHints(readFileSync(program)).bytes);
    const good = compile(hinted);
    assert.equal(good.status, 0, good.stderr);
    assert.doesNotMatch(good.stdout + good.stderr, /CompilationPriority error/);
    // the same check sees a section V8 refuses (a hint inside a function, at byte 1)
    const bad = Buffer.from(readFileSync(hinted));
    const { index } = readHints(bad);
    const section = sections(bad)[index];
    const r = new Reader(bad, section.start);
    r.name(); r.u32(); r.u32();
    bad[r.pos] = 1; // the first hint's byte offset
    const refusedPath = join(out, 'hello-bad-hints.wasm');
    writeFileSync(refusedPath, bad);
    assert.match(compile(refusedPath).stdout, /CompilationPriority error.*byte offset/);
  });
});
