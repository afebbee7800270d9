// How `spindle run` ends when the world around it does: a reader that closes stdout early
// (the run ends as a native program killed by SIGPIPE), and signals to the CLI (no browser,
// profile or worker is left behind). In Node and in each browser (tests/lib/browsers.js's runBrowsers).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { browserFlag, browserTitle, runBrowsers } from './lib/browsers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const src = join(root, 'tests', 'run');
const out = join(root, 'build', 'tests', 'run');
// Node, then each browser (tests/lib/browsers.js)
// (`--compile=lazy`: the run goes on in a Node started again with other V8 flags, cli/common/v8-start.js)
const hosts = [{ flags: [], hostName: 'Node' }, { flags: ['--compile=lazy'], hostName: 'Node, started again with other V8 flags' }, ...runBrowsers.map((name) => ({ flags: [browserFlag(name)], hostName: browserTitle[name], browser: true }))];

async function build(name, fs = 'spindle') {
  const wasm = join(out, `${name}.${fs}.wasm`);
  const r = await exec(spindle, ['cc', '-O2', `--fs=${fs}`, join(src, `${name}.c`), '-o', wasm]);
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
  // --fs=js in Node runs the C main on Node's main thread (host/jsfs/host-thread.js), not a worker
  const filesystems = ['spindle', 'js'];
  const wasm = {};
  before(async () => {
    mkdirSync(out, { recursive: true });
    for (const fs of filesystems) wasm[fs] = await build('endless_output', fs);
  });

  for (const { flags, hostName } of hosts) {
    for (const [fs, mode] of filesystems.flatMap((f) => ['printf', 'raw'].map((m) => [f, m]))) {
      it(`ends the run with 141 like SIGPIPE, output intact, no stack (${hostName}, --fs=${fs}, ${mode})`, async () => {
        const r = await runClosingStdout(['run', ...flags, wasm[fs], mode], 100);
        assert.equal(r.code, 141, r.stderr);
        assert.equal(r.head, expectedHead(100));
        assert.equal(r.stderr, ''); // neither a JS stack nor the program's own "write failed"
      });
    }
  }
});

/** Pids of the processes whose command line mentions `text`. */
function processesNaming(text) {
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p) && p !== String(process.pid)).filter((pid) => {
    try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text); } catch { return false; }
  });
}

/** The process groups of `pids` (field 5 of /proc/PID/stat). */
function groupsOf(pids) {
  return new Set(pids.flatMap((pid) => {
    try { return [readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[2]]; } catch { return []; }
  }));
}

/** Pids of the live processes in any of `groups` (a zombie has ended: its parent just has not reaped it yet). */
function processesIn(groups) {
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((pid) => {
    try {
      const [state, , group] = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      return state !== 'Z' && groups.has(group);
    } catch { return false; }
  });
}

async function eventually(what, check, ms = 5000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) assert.fail(`after ${ms / 1000} s: ${what}`);
    await new Promise((resolve) => { setTimeout(resolve, 100); });
  }
}

/**
 * Starts the CLI on a program that spins on every thread, with its own temporary directory
 * (so the browser's profile is under it); resolves once the program runs.
 */
function startSpinning(args, temp) {
  const child = spawn(spindle, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: temp } });
  const closed = new Promise((resolve) => { child.on('close', (code, signal) => resolve({ code, signal })); });
  const err = [];
  child.stderr.on('data', (c) => err.push(c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`never spun: ${Buffer.concat(err)}`)); }, 120000);
    child.stdout.on('data', (c) => {
      if (!String(c).includes('spinning')) return;
      clearTimeout(timer);
      resolve({ child, closed });
    });
  });
}

describe('signals to spindle run', () => {
  let wasm;
  before(async () => {
    mkdirSync(out, { recursive: true });
    wasm = await build('spin_threads');
  });

  for (const { flags, hostName, browser } of hosts) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL']) {
      const what = signal === 'SIGKILL' ? 'the CLI\'s death' : signal;
      it(`${what} leaves no process and no profile behind (${hostName})`, async () => {
        const temp = mkdtempSync(join(tmpdir(), 'spindle-signal-test-'));
        try {
          const { child, closed } = await startSpinning(['run', ...flags, wasm, '3'], temp);
          if (browser) assert.ok(processesNaming(temp).length > 1, 'the browser runs with its profile in TMPDIR');
          // the browser's groups (and WebKit's Xvfb's): their processes need not name the
          // profile (WebKit's web and network processes do not)
          const groups = groupsOf(processesNaming(temp));
          child.kill(signal);
          const end = await closed;
          assert.equal(end.signal, signal, `the CLI dies of ${signal} (exit ${end.code})`);
          await eventually(`no process names ${temp}`, () => processesNaming(temp).length === 0);
          await eventually('no process is left in the browser\'s process groups', () => processesIn(groups).length === 0);
          await eventually(`${temp} is empty`, () => readdirSync(temp).length === 0);
          await eventually(`no process runs ${wasm}`, () => processesNaming(wasm).length === 0);
        } finally {
          rmSync(temp, { recursive: true, force: true });
        }
      });
    }
  }
});

// Node with a module preloaded into every thread (--import), to make a run break as a Node
// version or a bug could break it.
const nodeWith = (preload) => ['--import', `data:text/javascript,${preload}`, spindle];

describe('a run that cannot run fails loudly', () => {
  let wasm;
  before(async () => {
    mkdirSync(out, { recursive: true });
    wasm = await build('exit_status');
  });

  // Node 24 exited 0 with no output while an eager compile was under way (docs/HOST.md).
  for (const mode of ['eager', 'lazy']) {
    it(`runs main to its exit status with --compile=${mode}`, async () => {
      const r = await exec(spindle, ['run', `--compile=${mode}`, wasm]);
      assert.deepEqual([r.code, r.stdout, r.stderr], [7, 'ran\n', '']);
    });
  }

  it('a thread\'s worker that exits before the program ended ends the run with 134 and a message', async () => {
    const vanish = 'import{isMainThread}from"node:worker_threads";if(!isMainThread)process.exit(0)';
    // (the C main in a worker of its own, which then goes away: on Node's main thread this program
    // asks for no worker at all)
    const r = await exec(process.execPath, [...nodeWith(vanish), 'run', wasm], { env: { ...process.env, SPINDLE_MAIN_THREAD: 'worker' } });
    assert.equal(r.code, 134, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^spindle: worker failed: worker exited with code 0 before the program ended\n$/);
  });

  it('a command that Node stops waiting for exits 1 with a message, not 0', async () => {
    // a compile that never settles, and no timer to keep Node waiting for it (the code cache off:
    // it compiles through the cache's addon, not WebAssembly.compile; a module over 1 MiB: a
    // smaller one compiles lazily on the spot)
    const big = await build('exit_status_big');
    const stall = 'globalThis.setInterval=()=>0;globalThis.clearInterval=()=>{};WebAssembly.compile=()=>new Promise(()=>{})';
    const r = await exec(process.execPath, [...nodeWith(stall), 'run', big], { env: { ...process.env, SPINDLE_CODE_CACHE: '0' } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'spindle: internal error: Node had nothing left to wait on before the command finished\n');
  });
});
