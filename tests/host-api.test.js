// The host API used directly, without the CLI: in-process from Node, and from a web page.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { compile, runProgram, startEarlyWorker } from '../host/index.js';
import { exec } from './lib/exec.js';
import { browserTitle, testBrowsers } from './lib/browsers.js';
import { pageResult } from './lib/page-result.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'host');
const wasmPath = join(out, 'api_probe.wasm');
let program;

async function runCapturing(options) {
  const file = join(out, `stdout-${Math.random().toString(36).slice(2)}.txt`);
  const fd = openSync(file, 'w');
  try {
    const result = await runProgram(program, { ...options, stdout: fd });
    return { ...result, stdout: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

describe('host API in Node', () => {
  before(async () => {
    mkdirSync(out, { recursive: true });
    const r = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'tests', 'host', 'api_probe.c'), '-o', wasmPath]);
    assert.equal(r.code, 0, r.stderr);
    program = await compile(readFileSync(wasmPath));
  });

  it('passes args, env, stdin bytes and the core count; one compile serves several runs', async () => {
    for (const cores of [1, 5]) {
      const r = await runCapturing({ args: ['probe', 'x'], env: { PROBE: 'yes' }, cpuCount: cores,
        stdin: new TextEncoder().encode('1\n2\n3\n') });
      assert.equal(r.exitCode, 0);
      assert.equal(r.trap, undefined);
      assert.equal(r.stdout, `cores=${cores} lines=3 argv1=x env=yes\n`);
    }
  });

  it('reports a trap in a thread with code 134 and names the thread', async () => {
    const r = await runCapturing({ args: ['probe', 'trap'], stdin: new Uint8Array() });
    assert.equal(r.exitCode, 134);
    assert.match(r.trap, /^thread \d+: trap: unreachable/);
  });

  it('runs main on a worker started before the program (startEarlyWorker), once', async () => {
    const earlyWorker = await startEarlyWorker();
    await earlyWorker.loaded;
    const r = await runCapturing({ args: ['probe', 'x'], env: { PROBE: 'yes' }, cpuCount: 3, stdin: new TextEncoder().encode('a\n'), earlyWorker });
    assert.deepEqual([r.exitCode, r.trap, r.stdout], [0, undefined, 'cores=3 lines=1 argv1=x env=yes\n']);
    await assert.rejects(runProgram(program, { earlyWorker, stdin: new Uint8Array() }), /earlyWorker: this worker serves a program already/);
  });

  it('ends the program when a thread calls exit while main waits', async () => {
    const r = await runCapturing({ args: ['probe', 'exit'], stdin: new Uint8Array() });
    assert.equal(r.exitCode, 7);
    assert.equal(r.trap, undefined);
  });
});

describe('host API on a web page', () => {
  for (const browser of testBrowsers) {
    it(`runs the module from a page with output through onStdio (${browserTitle[browser]})`, async () => {
      const files = { '/': join(root, 'tests', 'host', 'page.html'), '/probe.wasm': wasmPath };
      const result = await pageResult(files, { browser });
      assert.equal(result.isolated, true);
      assert.equal(result.exitCode, 0);
      assert.equal(result.text, 'cores=3 lines=2 argv1=page env=from-page\n');
    });
  }
});
