// The host's thread limit (maxThreads; 1,024 by default): pthread_create beyond it fails with
// EAGAIN, the program's stderr gets a one-line hint the first time, and threads start again
// once others end.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compile, runProgram } from '../host/index.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'tests', 'run');

describe('thread limit', () => {
  it('fails pthread_create with EAGAIN at the limit and says why once', async () => {
    mkdirSync(out, { recursive: true });
    const wasm = join(out, 'thread_limit.wasm');
    const cc = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', join(root, 'tests', 'run', 'thread_limit.c'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    const files = { stdout: join(out, 'thread_limit.out'), stderr: join(out, 'thread_limit.err') };
    const fds = { stdout: openSync(files.stdout, 'w'), stderr: openSync(files.stderr, 'w') };
    let result;
    try {
      result = await runProgram(await compile(readFileSync(wasm)), { args: ['thread_limit'], poolSize: 2, maxThreads: 6, ...fds });
    } finally {
      closeSync(fds.stdout);
      closeSync(fds.stderr);
    }
    assert.equal(result.exitCode, 0, result.trap);
    assert.equal(readFileSync(files.stdout, 'utf8'), 'ran 6 at once, then EAGAIN, again EAGAIN\nafter they ended: started\n');
    const stderr = readFileSync(files.stderr, 'utf8');
    assert.match(stderr, /^spindle: thread limit 6 reached; pthread_create fails with EAGAIN until a thread ends .*docs\/HOST.md\)\n$/);
  });
});
