// The foundation's end-to-end tests: every C/C++ program in tests/programs is built with
// `spindle cc` and run with `spindle run` in Node and in headless Chromium (and a subset in
// Firefox and WebKit, tests/lib/browsers.js); its stdout and exit
// code must equal the same program built natively (or what its NAME.json expects).
// A spec with "fsjs": true is also built with --fs=js (docs/JSFS.md) and must give the same results there;
// "spindleFlags" go to `spindle cc` only, "cflags" to both compilers.
// stdin and stdout are Node's pipes; "stdinFrom": "file" gives stdin as a regular file holding
// "stdin" (mtime 2001-09-09), "stdoutTo": "file" sends stdout to a file, which is then compared,
// and "pipe" gives a shell's pipe; "stdinFrom": "null" and "stderrTo": "null" connect /dev/null. "mountAddon": true needs the mount addon (lseek of a stdout
// that is a file: docs/POSIX.md) and is skipped without it (tests/mount-addon.test.js checks
// what a run gets then).
// In the browsers, for CI's time (issue 38: a browser's launch, 4-8 s on 2 cores, was most of
// each run), a program runs as `spindle run --browser`'s own job (cli/run/run-browser.js,
// runBrowserJob) in a browser the suite keeps open, its page reloaded after each job, with
// stdio in memory (tests/lib/browser-jobs.js): the same stdout, stderr, exit code and trap
// line, but fds 0-2 that fstat as pipes, not as the fds of a CLI. So the programs whose fds
// 0-2 must be real (stdinFrom, stdoutTo, stderrTo) and those of viaCli still run the whole
// CLI, a browser each; tests/run-exit.test.js and tests/trap-text.test.js run it in every
// browser too.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BrowserJobs } from './lib/browser-jobs.js';
import { buildFromSource } from './lib/build-cache.js';
import { browserFlag, runBrowsers } from './lib/browsers.js';
import { exec, inParallel } from './lib/exec.js';
import { addonWanted, mountAddon } from '../host/platform/mount-addon.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const dir = join(root, 'tests', 'programs');
const out = join(root, 'build', 'tests', 'programs');
const only = process.env.SPINDLE_TEST_ONLY ? new RegExp(process.env.SPINDLE_TEST_ONLY) : null;

const programs = readdirSync(dir)
  .filter((f) => /\.(c|cpp)$/.test(f))
  .map((file) => {
    const name = file.replace(/\.(c|cpp)$/, '');
    const specPath = join(dir, `${name}.json`);
    const spec = { args: [], env: {}, stdin: '', exit: 0, native: true, browser: true, fsjs: false, cflags: [], spindleFlags: [],
      ...(existsSync(specPath) ? JSON.parse(readFileSync(specPath, 'utf8')) : {}) };
    return { name, file, cxx: file.endsWith('.cpp'), spec };
  })
  .filter((p) => !only || only.test(p.name));

const built = new Map();
const STDIN_FILE_MTIME = 1000000000; // the runner's stdin file is as old in every run

// Runs cmd with the spec's stdin and stdout. With "stdinFrom"/"stdoutTo"/"stderrTo" the
// program's fds 0-2 are what a shell gives it: real pipes (Node's own are socket pairs), /dev/null or files
// in a folder of this run's own. A program may exit before reading all of a piped stdin, so the
// feeding `cat` can die of SIGPIPE; that is not the program's failure (pipefail would report it).
async function run(p, cmd, args, env) {
  const { spec } = p;
  if (!spec.stdinFrom && !spec.stdoutTo && !spec.stderrTo) return exec(cmd, args, { input: spec.stdin, env });
  const folder = mkdtempSync(join(out, `${p.name}-`));
  try {
    const stdinPath = join(folder, 'stdin');
    const stdoutPath = join(folder, 'stdout');
    writeFileSync(stdinPath, spec.stdin);
    utimesSync(stdinPath, STDIN_FILE_MTIME, STDIN_FILE_MTIME);
    const stdinFrom = { file: '"$@" < "$stdin"', null: '"$@" < /dev/null' }[spec.stdinFrom] ??
      '{ cat "$stdin" || true; } 2>/dev/null | "$@"';
    const script = `set -o pipefail; exec 2> >(cat >&2); stdin=$1 stdout=$2; shift 2; ${stdinFrom}${
      spec.stderrTo === 'null' ? ' 2> /dev/null' : ''}${spec.stdoutTo === 'file' ? ' > "$stdout"' : ' | cat'}`;
    const result = await exec('bash', ['-c', script, 'run', stdinPath, stdoutPath, cmd, ...args], { env });
    return spec.stdoutTo === 'file' ? { ...result, stdout: readFileSync(stdoutPath, 'utf8') } : result;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// (each build kept for the next lane of scripts/test.sh: tests/lib/build-cache.js)
async function build(p) {
  const source = join(dir, p.file);
  const wasm = join(out, `${p.name}.wasm`);
  const cc = await buildFromSource(spindle, ['cc', '-O2', ...p.spec.spindleFlags, ...p.spec.cflags, source, '-o', wasm], source, wasm);
  const result = { wasm, buildError: cc.code === 0 ? null : cc.stderr };
  if (p.spec.fsjs) {
    result.wasmFsJs = join(out, `${p.name}.fsjs.wasm`);
    const js = await buildFromSource(spindle, ['cc', '-O2', '--fs=js', ...p.spec.cflags, source, '-o', result.wasmFsJs], source, result.wasmFsJs);
    if (js.code !== 0) result.buildError = js.stderr;
  }
  if (p.spec.native) {
    const exe = join(out, `${p.name}.native`);
    const compiler = p.cxx ? 'clang++-22' : 'clang-22';
    const nat = await buildFromSource(compiler, ['-O2', '-pthread', ...p.spec.cflags, source, '-o', exe], source, exe);
    if (nat.code !== 0) throw new Error(`native build of ${p.file} failed:\n${nat.stderr}`);
    result.native = await run(p, exe, p.spec.args, { ...p.spec.env, PATH: process.env.PATH });
  }
  built.set(p.name, result);
}

function check(p, got) {
  const { spec } = p;
  const expected = built.get(p.name).native;
  const context = `\n--- stdout ---\n${got.stdout.slice(0, 2000)}\n--- stderr ---\n${got.stderr.slice(0, 2000)}`;
  assert.equal(got.code, expected ? expected.code : spec.exit, `exit code${context}`);
  if (expected) assert.equal(expected.code, spec.exit, 'the native build itself exits as the spec says');
  if (expected) assert.equal(got.stdout, expected.stdout, `stdout differs from the native build${context}`);
  if (spec.stdout !== undefined) assert.equal(got.stdout, spec.stdout, `stdout${context}`);
  for (const s of spec.stdoutIncludes ?? []) assert.ok(got.stdout.includes(s), `stdout lacks ${JSON.stringify(s)}${context}`);
  for (const s of spec.stderrIncludes ?? []) assert.ok(got.stderr.includes(s), `stderr lacks ${JSON.stringify(s)}${context}`);
}

/** `browser`: null for Node, else the browser's name (tests/lib/browsers.js). */
function runArgs(p, browser, fsJs) {
  const envFlags = Object.entries(p.spec.env).map(([k, v]) => `--env=${k}=${v}`);
  const b = built.get(p.name);
  return ['run', ...(browser ? [browserFlag(browser)] : []), ...envFlags, fsJs ? b.wasmFsJs : b.wasm, ...p.spec.args];
}

// Each program in Node, and in each browser (named by its run option's value: the Chromium
// modes stay `browser` as before), with the in-memory tree and with --fs=js.
const modes = [[null, 'node'], ...runBrowsers.map((name) => [name, name === 'chromium' ? 'browser' : name])]
  .flatMap(([browser, mode]) => [{ browser, name: mode }, { browser, name: `${mode} --fs=js`, fsJs: true }]);

// Firefox runs a representative subset, for CI's time: every program there took 2.1x Chromium's
// time (878 s of test time against 411 s, 2 cores under load), C++ throw loops most (43 s).
// Threads, condition variables, futexes, pipes, stdin, large output, files, memory growth, C++
// exceptions, traps, stack overflow and exit from a thread; --fs=js through posix_paths.
// SPINDLE_TEST_FIREFOX_ALL=1 runs every program in Firefox too.
const firefoxSubset = new Set(['thread_create_join', 'condvar_queue', 'futex_park_wake', 'posix_pipe_threads', 'stdin_lines',
  'large_output', 'cpp_fstream_filesystem', 'memory_growth_steps', 'cpp_exceptions', 'trap_in_thread', 'stack_overflow_thread',
  'exit_from_thread', 'posix_paths']);
const inFirefox = (name) => process.env.SPINDLE_TEST_FIREFOX_ALL === '1' || firefoxSubset.has(name);

// WebKit (WebKitGTK under Xvfb) runs Firefox's subset and setjmp_longjmp, which JSC's in-place
// interpreter got wrong (cli/browser/webkit.js turns it off). Every program passed there (docs/HOST.md,
// "WebKit"); SPINDLE_TEST_WEBKIT_ALL=1 runs them all again.
const webkitSubset = new Set([...firefoxSubset, 'setjmp_longjmp']);
const inWebKit = (name) => process.env.SPINDLE_TEST_WEBKIT_ALL === '1' || webkitSubset.has(name);
const inBrowser = (browser, name) => (browser === 'firefox' ? inFirefox(name) : browser === 'webkit' ? inWebKit(name) : true);

// A browser mode runs a program as a job in a browser the suite keeps open (tests/lib/browser-jobs.js),
// SESSIONS of each browser at most. Programs whose fds 0-2 must be real (stdinFrom, stdoutTo,
// stderrTo: files, shell pipes, /dev/null) and those of viaCli go through `spindle run --browser`
// itself, a browser launched for each.
const viaCli = new Set(['stdin_lines', 'trap_in_thread']); // in every browser's subset
const throughCli = (p) => Boolean(p.spec.stdinFrom || p.spec.stdoutTo || p.spec.stderrTo) || viaCli.has(p.name);
// One browser of each: the two tests at a time are mostly a Node run beside a browser run, and
// two Chromiums measured no faster on 2 cores (365 s against 348 s for the file, load 5-14).
const SESSIONS = Number(process.env.SPINDLE_TEST_BROWSER_SESSIONS) || 1;

describe('C/C++ programs under spindle run', { concurrency: Math.max(2, availableParallelism()) }, () => {
  const jobs = new BrowserJobs({ sessionsPerBrowser: SESSIONS });
  before(async () => {
    mkdirSync(out, { recursive: true });
    await inParallel(programs, availableParallelism(), build);
  });
  after(() => jobs.close());

  for (const p of programs) {
    for (const { browser, name: mode, fsJs = false } of modes) {
      if ((fsJs && !p.spec.fsjs) || (browser && !inBrowser(browser, p.name))) continue;
      const skip = (Boolean(browser) && !p.spec.browser) || (p.spec.mountAddon && !(addonWanted() && mountAddon()?.lseek) &&
        'needs the mount addon');
      it(`${mode}: ${p.name}`, { skip }, async () => {
        const b = built.get(p.name);
        assert.equal(b.buildError, null, `spindle cc failed:\n${b.buildError}`);
        const args = runArgs(p, browser, fsJs);
        check(p, browser && !throughCli(p) ? await jobs.run(args.slice(1), { input: p.spec.stdin }) : await run(p, spindle, args));
      });
    }
  }
});
