// A hostile module (tests/hostile/hostile.c) calls Spindle's host imports itself with forged,
// stale, out-of-range and random requests (issue 21: the host trusts nothing a module sends).
// In Node, each run is a child process (tests/hostile/node-driver.js) that holds canary files
// outside the mounts open on its own fds; pass = every forged handle is EBADF, every bad address
// a clear errno, no crash, and the canaries (content, size, still open) and every fd of the host
// intact. In Chromium the same module runs with OPFS mounts. The fuzzer's seed is fixed; its
// budget is a few seconds (SPINDLE_TEST_LONG=1: a minute). SPINDLE_TEST_BROWSER=0 skips Chromium.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { serveIsolated } from '../cli/browser/isolated-server.js';
import { openProfile } from './opfs/profile.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'hostile');
const wasm = join(out, 'hostile.wasm');
const long = process.env.SPINDLE_TEST_LONG === '1';
const fuzzMs = long ? 60000 : 3000;
const skipBrowser = process.env.SPINDLE_TEST_BROWSER === '0' ? 'SPINDLE_TEST_BROWSER=0' : false;
const work = [];

before(async () => {
  mkdirSync(out, { recursive: true });
  const r = await exec(spindle, ['cc', '-O1', join(root, 'tests', 'hostile', 'hostile.c'), '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
});
after(() => work.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs the hostile module in a child Node process; its result.json, checked for damage. */
async function runInNode(args, { ioWorkers = 0 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'spindle-hostile-'));
  work.push(dir);
  const r = await exec(process.execPath, [join(root, 'tests', 'hostile', 'node-driver.js'), wasm, dir, ...args],
    { env: { ...process.env, HOSTILE_IO_WORKERS: String(ioWorkers) }, timeoutMs: fuzzMs + 120000 });
  assert.equal(r.code, 0, `the host process died (${r.signal ?? r.code}):\n${r.stderr}`);
  const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
  assert.deepEqual(result.damage, [], `the module reached host fds or files:\n${result.stdout}`);
  assert.equal(result.trap, undefined, `the program trapped:\n${result.stdout}`);
  return result;
}

const STALE = `open in.txt: 0
pread: 6
bit flips accepted: 0 of 64
on mount 1: EBADF
close: 0
after close: EBADF
open in2.txt: 0
old handle after a new open: EBADF
new handle: works
close new: 0
`;

describe('a hostile module in Node (host-directory mounts)', () => {
  for (const ioWorkers of [0, 1]) {
    const how = ioWorkers ? 'through an I/O worker' : 'inline';
    it(`forged handles (0..1099, high bits) are EBADF, ${how}: no host fd touched`, async () => {
      const r = await runInNode(['forge'], { ioWorkers });
      assert.equal(r.stdout, 'forge: 0 of 1108 handles accepted\n');
      assert.equal(r.exitCode, 0);
    });
    it(`a real handle: bit flips, after close, on another mount are EBADF, ${how}`, async () => {
      const r = await runInNode(['stale'], { ioWorkers });
      assert.equal(r.stdout, STALE);
    });
  }
  it('requests, buffers and paths outside memory, bad ops and mounts: clear errors', async () => {
    const r = await runInNode(['pointers']);
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, readFileSync(join(root, 'tests', 'hostile', 'pointers.expected'), 'utf8'));
  });
  it('the files API imports called out of turn: no crash', async () => {
    const r = await runInNode(['files']);
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, ['files_pieces (copy in)', 'files_pieces (copy out)', 'files_pieces (bad list)',
      'files_stat', 'files_entry', 'files_done'].map((s) => `${s}: returned\n`).join('') +
      'files_preload_next (bad address): 0\nfiles_preload_next (none left): 0\n');
  });
  it(`random requests (seed 21, ${fuzzMs / 1000} s): no forged handle accepted, no damage`, async () => {
    const r = await runInNode(['fuzz', '21', String(fuzzMs)]);
    assert.equal(r.exitCode, 0, r.stdout);
    assert.match(r.stdout, /^fuzz: many calls, 0 forged handles accepted, some succeeded\n$/);
  });
});

// The page side: OPFS mounts /m0 and /m1 (in a fresh directory), a canary file in the
// origin's OPFS outside both, the module run through the host API (bench/opfs/run-page.js).
async function runInPage(page, args) {
  const url = 'build/tests/hostile/hostile.wasm';
  return page.evaluate(async ([url, argv]) => {
    const root = await navigator.storage.getDirectory();
    const dir = async (path) => {
      let d = root;
      for (const name of path.split('/')) d = await d.getDirectoryHandle(name, { create: true });
      return d;
    };
    const write = async (d, name, text) => {
      const w = await (await d.getFileHandle(name, { create: true })).createWritable();
      await w.write(text);
      await w.close();
    };
    const canaryText = 'canary: nobody may touch this file\n'.repeat(4);
    // a fresh directory per run: the last run's I/O workers may still hold its files a moment
    const base = `hostile-${Math.random().toString(36).slice(2)}`;
    await write(await dir(`${base}/m0`), 'in.txt', 'inside');
    await dir(`${base}/m1`);
    await write(await dir('outside'), 'canary', canaryText);
    const r = await window.spindleRun(url, { args: ['hostile', ...argv],
      mounts: [{ path: '/m0', opfs: `${base}/m0` }, { path: '/m1', opfs: `${base}/m1` }] });
    const canary = await (await (await dir('outside')).getFileHandle('canary')).getFile();
    r.damage = (await canary.text()) === canaryText ? [] : ['the OPFS canary outside the mounts changed'];
    await root.removeEntry(base, { recursive: true }).catch(() => {}); // (the profile goes anyway)
    return r;
  }, [url, args]);
}

describe('a hostile module in Chromium (OPFS mounts)', { skip: skipBrowser }, () => {
  let server;
  let browser;
  let profile;
  before(async () => {
    server = await serveIsolated();
    profile = mkdtempSync(join(tmpdir(), 'spindle-hostile-opfs-'));
    work.push(profile);
    browser = await openProfile(profile, `${server.url}/`);
    await browser.page.addScriptTag({ type: 'module', url: 'bench/opfs/run-page.js' });
    await browser.page.waitForFunction(() => window.spindleReady, null, { timeout: 30000 });
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  const clean = (r) => {
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(r.damage, []);
    assert.equal(r.trap, undefined, `the program trapped:\n${r.stdout}`);
  };

  it('forged handles are EBADF', async () => {
    const r = await runInPage(browser.page, ['forge']);
    clean(r);
    assert.equal(r.stdout, 'forge: 0 of 1108 handles accepted\n');
  });
  it('a real handle: bit flips, after close, on another mount are EBADF', async () => {
    const r = await runInPage(browser.page, ['stale']);
    clean(r);
    assert.equal(r.stdout, STALE);
  });
  it('requests, buffers and paths outside memory: clear errors, no trap', async () => {
    const r = await runInPage(browser.page, ['pointers']);
    clean(r);
    assert.equal(r.exitCode, 0);
    const expected = readFileSync(join(root, 'tests', 'hostile', 'pointers.expected'), 'utf8').split('\n');
    const got = r.stdout.split('\n');
    // OPFS answers some out-of-range values its own way; every line is still an answer
    const differ = /^(pread at offset 2\^63-1|ftruncate to 2\^63-1)/;
    assert.deepEqual(got.filter((l) => !differ.test(l)), expected.filter((l) => !differ.test(l)));
    for (const line of got.filter((l) => differ.test(l))) assert.match(line, /: -\d+$/);
  });
  it(`random requests (seed 21, ${fuzzMs / 1000} s): no forged handle accepted`, async () => {
    const r = await runInPage(browser.page, ['fuzz', '21', String(fuzzMs)]);
    clean(r);
    assert.equal(r.exitCode, 0, r.stdout);
    assert.match(r.stdout, /^fuzz: many calls, 0 forged handles accepted, some succeeded\n$/);
  });
});
