// How `spindle run` ends when the world around it does: a reader that closes stdout early
// (the run ends as a native program killed by SIGPIPE), and signals to the CLI (no browser,
// profile or worker is left behind). In Node and in headless Chromium.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const src = join(root, 'tests', 'run');
const out = join(root, 'build', 'tests', 'run');
const hosts = process.env.SPINDLE_TEST_BROWSER === '0' ? [[]] : [[], ['--browser']];
const hostName = (flags) => (flags.length ? 'Chromium' : 'Node');

async function build(name) {
  const wasm = join(out, `${name}.wasm`);
  const r = await exec(spindle, ['cc', '-O2', join(src, `${name}.c`), '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
  return wasm;
}

/** Runs the CLI with stdout piped to a reader that closes it after `keep` bytes. */
function runClosingStdout(args, keep) {
  return new Promise((resolve, reject) => {
    const child = spawn(spindle, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let got = Buffer.alloc(0);
    const err = [];
    child.stdout.on('data', (chunk) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= keep) child.stdout.destroy(); // the reader goes away, as `head -c` does
    });
    child.stderr.on('data', (c) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, head: got.subarray(0, keep).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

const expectedHead = (n) => Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('').slice(0, n);

describe('a closed stdout', () => {
  let wasm;
  before(async () => {
    mkdirSync(out, { recursive: true });
    wasm = await build('endless_output');
  });

  for (const flags of hosts) {
    for (const mode of ['printf', 'raw']) {
      it(`ends the run with 141 like SIGPIPE, output intact, no stack (${hostName(flags)}, ${mode})`, async () => {
        const r = await runClosingStdout(['run', ...flags, wasm, mode], 100);
        assert.equal(r.code, 141, r.stderr);
        assert.equal(r.head, expectedHead(100));
        assert.equal(r.stderr, ''); // neither a JS stack nor the program's own "write failed"
      });
    }
  }
});
