// Both file systems, Spindle's (`--fs=spindle`, docs/FILESYSTEM.md) and the JS FS baseline
// (`--fs=js`, docs/JSFS.md): the conformance programs (tests/fs/conformance) and the threaded
// programs in tests/jsfs, run in Node and in headless Chromium; stdout and exit code must equal
// the native Linux build run in a fresh directory (or what the program's entry below expects
// when there is no native counterpart).
// In the browsers, for CI's time (issue 38: a browser's launch was most of each run), a program
// runs as `spindle run --browser`'s own job in a browser the suite keeps open, its page reloaded
// after each job, with stdio in memory (tests/lib/browser-jobs.js, as tests/programs.test.js):
// the same stdout, stderr, exit code and trap line; no program here reads stdin or looks at
// what fds 0-2 are, and none mounts OPFS. tests/programs.test.js, tests/run-exit.test.js and
// tests/trap-text.test.js run the whole CLI in every browser.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BrowserJobs } from './lib/browser-jobs.js';
import { browserFlag, testBrowsers } from './lib/browsers.js';
import { exec, inParallel } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'fs-programs');
const filesystems = ['spindle', 'js'];
const only = process.env.SPINDLE_TEST_ONLY ? new RegExp(process.env.SPINDLE_TEST_ONLY) : null;

const expectations = {
  exit_from_io_thread: { exit: 3 },
  // natively a trap is SIGILL: expect Spindle's own report instead
  trap_in_io_thread: { native: false, exit: 134, stdout: 'write from thread: ok\n', stderrIncludes: ['trap'] },
  // a thread-caching allocator hands a block freed by libc's racy cwd join straight to the next
  // FILE, so the corruption shows at once (with dlmalloc only some runs failed)
  relative_paths_threads: { cc: ['--malloc=spindle'] },
  io_while_main_blocks: { cc: ['--malloc=spindle'] },
};

const sources = [
  ...readdirSync(join(root, 'tests', 'fs', 'conformance')).filter((f) => f.endsWith('.c'))
    .map((f) => join(root, 'tests', 'fs', 'conformance', f)),
  ...readdirSync(join(root, 'tests', 'jsfs')).filter((f) => f.endsWith('.c'))
    .map((f) => join(root, 'tests', 'jsfs', f)),
];
const programs = sources.map((src) => {
  const name = src.split('/').pop().replace(/\.c$/, '');
  return { name, src, spec: { native: true, exit: 0, ...expectations[name] } };
}).filter((p) => !only || only.test(p.name));

const built = new Map();
let scratch;

async function build(p) {
  const result = { wasm: {}, buildError: {} };
  for (const fs of filesystems) {
    const wasm = join(out, `${p.name}.${fs}.wasm`);
    const cc = await exec(spindle, ['cc', `--fs=${fs}`, '-O1', ...(p.spec.cc ?? []), p.src, '-o', wasm]);
    result.wasm[fs] = wasm;
    result.buildError[fs] = cc.code === 0 ? null : cc.stderr;
  }
  if (p.spec.native) {
    const exe = join(out, `${p.name}.native`);
    const nat = await exec('clang-22', ['-std=gnu11', '-O1', '-pthread', p.src, '-o', exe]);
    if (nat.code !== 0) throw new Error(`native build of ${p.name} failed:\n${nat.stderr}`);
    const dir = join(scratch, p.name);
    mkdirSync(dir);
    result.native = await exec(exe, [], { env: { PATH: process.env.PATH, TMPDIR: dir } });
  }
  built.set(p.name, result);
}

describe('file-system programs (--fs=spindle and --fs=js)', { concurrency: Math.max(2, availableParallelism()) }, () => {
  const jobs = new BrowserJobs(); // one browser of each kind, as tests/programs.test.js
  before(async () => {
    mkdirSync(out, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'spindle-jsfs-native-'));
    await inParallel(programs, availableParallelism(), build);
  });
  after(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await jobs.close();
  });

  it('a --fs=js module imports the host-thread wait hook and no Spindle FS', async () => {
    const b = built.get(programs[0].name);
    assert.equal(b.buildError.js, null, b.buildError.js);
    const dump = await exec('wasm-objdump', ['-x', '-j', 'import', b.wasm.js]);
    assert.match(dump.stdout, /spindle\.jsfs_host_thread_wait/);
    assert.match(dump.stdout, /wasi_snapshot_preview1\.path_open/); // files come from the host
    const names = await exec('wasm-objdump', ['-x', '-j', 'name', b.wasm.js]);
    assert.doesNotMatch(names.stdout, /spindle_fs_openat/);
    // and a --fs=spindle module keeps its files inside: no path calls reach the host
    const own = await exec('wasm-objdump', ['-x', '-j', 'import', b.wasm.spindle]);
    assert.doesNotMatch(own.stdout, /path_open/);
  });

  for (const p of programs) {
    // each browser is named by its run option's value; Chromium's mode stays `browser`. For CI's
    // time Firefox runs the tests/jsfs programs (I/O from threads, memory growth, traps, exits)
    // on the default file system only: all took 243 s of test time there, 2 cores under load; the
    // conformance programs run in Firefox on OPFS (tests/opfs.test.js) and --fs=js in
    // tests/programs. SPINDLE_TEST_FIREFOX_ALL=1 runs them all.
    const inBrowser = (f, b) => b !== 'firefox' || process.env.SPINDLE_TEST_FIREFOX_ALL === '1' ||
      (f === 'spindle' && p.src.includes('/tests/jsfs/'));
    for (const [fs, mode, browser] of filesystems.flatMap((f) => [[f, 'node', null],
      ...testBrowsers.filter((b) => inBrowser(f, b)).map((b) => [f, b === 'chromium' ? 'browser' : b, b])])) {
      it(`--fs=${fs}, ${mode}: ${p.name}`, async () => {
        const b = built.get(p.name);
        assert.equal(b.buildError[fs], null, `spindle cc --fs=${fs} failed:\n${b.buildError[fs]}`);
        const got = browser ? await jobs.run([browserFlag(browser), b.wasm[fs]]) : await exec(spindle, ['run', b.wasm[fs]]);
        const context = `\n--- stdout ---\n${got.stdout.slice(0, 3000)}\n--- stderr ---\n${got.stderr.slice(0, 2000)}`;
        if (b.native) {
          assert.equal(b.native.code, p.spec.exit, `the native build exits as expected:\n${b.native.stdout}`);
          assert.equal(got.stdout, b.native.stdout, `stdout differs from Linux${context}`);
        }
        assert.equal(got.code, p.spec.exit, `exit code${context}`);
        if (p.spec.stdout !== undefined) assert.equal(got.stdout, p.spec.stdout, `stdout${context}`);
        for (const s of p.spec.stderrIncludes ?? []) assert.ok(got.stderr.includes(s), `stderr lacks ${s}${context}`);
      });
    }
  }
});
