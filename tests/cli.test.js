// spindle cc / spindle run as a user meets them: flags, objects, Makefiles, limits, errors.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { earlyStart, NOTHING_EARLY } from '../cli/run/run-early.js';
import { programOptions, RUN_OPTIONS, runUsage } from '../cli/run/run-options.js';
import { parseRunArgs } from '../cli/run/run.js';
import { mainRunsHere } from '../cli/run/main-thread-choice.js';
import { cargoUsage } from '../cli/cargo/cargo-usage.js';
import { parseCargoArgs } from '../cli/cargo/cargo.js';
import { importedMemory } from '../host/compile/module-info.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const src = join(root, 'tests', 'cli');
const out = join(root, 'build', 'tests', 'cli');

describe('spindle cc', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('compiles with -c and links objects, -I, -D, -lm', async () => {
    const flags = ['-O2', `-I${join(src, 'include')}`, '-DGREETING="hi"'];
    for (const part of ['parts_main', 'parts_lib']) {
      const r = await exec(spindle, ['cc', ...flags, '-c', join(src, `${part}.c`), '-o', join(out, `${part}.o`)]);
      assert.equal(r.code, 0, r.stderr);
    }
    const link = await exec(spindle, ['cc', join(out, 'parts_main.o'), join(out, 'parts_lib.o'), '-lm', '-o', join(out, 'parts.wasm')]);
    assert.equal(link.code, 0, link.stderr);
    const run = await exec(spindle, ['run', join(out, 'parts.wasm')]);
    assert.equal(run.stdout, 'hi 42 4.0\n');
  });

  it('links to -o /dev/null, as build checks do, without reading the module back', async () => {
    const r = await exec(spindle, ['cc', '-O2', join(src, 'parts_main.c'), join(src, 'parts_lib.c'), `-I${join(src, 'include')}`,
      '-DGREETING="hi"', '-lm', '-o', '/dev/null']);
    assert.equal(r.code, 0, r.stderr);
  });

  it('works as CC for make', async () => {
    const r = await exec('make', ['-s', '-C', src, `OUT=${out}`, `CC=${spindle} cc`, '-B']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await exec(spindle, ['run', join(out, 'parts.wasm')])).stdout, 'made by make 42 4.0\n');
  });

  it('sets the memory maximum and thread stack size, and malloc fails with ENOMEM at the maximum', async () => {
    const wasm = join(out, 'limits.wasm');
    const r = await exec(spindle, ['cc', '-O2', '--max-memory=32M', '--thread-stack-size=512K',
      join(src, 'stack_and_memory.c'), '-o', wasm]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(importedMemory(readFileSync(wasm)).maximum, 32 * 16); // 64 KiB pages
    const run = await exec(spindle, ['run', wasm]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /default thread stack: 524288\n/);
    const got = Number(/got (\d+) MiB, then NULL with ENOMEM: 1\n/.exec(run.stdout)?.[1]);
    assert.ok(got >= 20 && got < 32, `got ${got} MiB of a 32 MiB memory\n${run.stdout}`);
    assert.match(run.stdout, /malloc works again after freeing: 1\n/);
  });

  it('builds C++ by extension and with spindle c++', async () => {
    const cpp = join(out, 'hello.cpp');
    writeFileSync(cpp, '#include <iostream>\n#include <thread>\nint main(){ std::thread t([]{ std::cout << "hi from a std::thread" << std::endl; }); t.join(); }\n');
    for (const cmd of ['cc', 'c++']) {
      const r = await exec(spindle, [cmd, cpp, '-o', join(out, `hello-${cmd}.wasm`)]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await exec(spindle, ['run', join(out, `hello-${cmd}.wasm`)])).stdout, 'hi from a std::thread\n');
    }
  });

  it('refuses bad options with a clear message', async () => {
    for (const [flag, message] of [['--malloc=tcmalloc', /--malloc=tcmalloc: choose one of/],
      ['--max-memory=12Q', /not a size/], ['--max-memory=100000', /multiple of 64 KiB/]]) {
      const r = await exec(spindle, ['cc', flag, join(src, 'parts_lib.c'), '-c', '-o', join(out, 'x.o')]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, message);
    }
  });

  it('refuses a --max-memory below what the program needs to start, naming the minimum', async () => {
    const wasm = join(out, 'too-small.wasm');
    const program = join(root, 'tests', 'programs', 'args_env.c');
    let needed;
    for (const size of [['--max-memory=0'], ['--max-memory', '64K'], ['--max-memory=1M']]) {
      const r = await exec(spindle, ['cc', ...size, program, '-o', wasm]);
      assert.equal(r.code, 1, size.join(' '));
      const m = /the program needs (\d+) bytes to start .*give at least --max-memory=(\d+K)/.exec(r.stderr);
      assert.ok(m, r.stderr);
      needed ??= Number(m[1]);
      assert.equal(Number(m[1]), needed);
      assert.ok(!existsSync(wasm), 'no module is left');
    }
    // the minimum it names links and runs
    const atLeast = `${Math.ceil(needed / 65536) * 64}K`;
    const ok = await exec(spindle, ['cc', `--max-memory=${atLeast}`, program, '-o', wasm]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(importedMemory(readFileSync(wasm)).maximum * 65536, needed);
    assert.equal((await exec(spindle, ['run', wasm])).code, 0);
  });

  it('passes compile errors through with clang\'s exit code', async () => {
    const bad = join(out, 'bad.c');
    writeFileSync(bad, 'int main(void) { return undefined_name; }\n');
    const r = await exec(spindle, ['cc', bad, '-o', join(out, 'bad.wasm')]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /undefined_name/);
  });
});

describe('spindle run', () => {
  it('says what is wrong with a missing or non-wasm file', async () => {
    const missing = await exec(spindle, ['run', join(out, 'no-such.wasm')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file/i);
    const text = join(out, 'not-wasm.wasm');
    writeFileSync(text, 'hello');
    const notWasm = await exec(spindle, ['run', text]);
    assert.equal(notWasm.code, 1);
    assert.match(notWasm.stderr, /not a WebAssembly module/);
  });

  it('refuses unknown options', async () => {
    const r = await exec(spindle, ['run', '--fast', 'x.wasm']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown option --fast/);
  });

  it('starts main\'s worker before loading the rest for a Node run only (docs/HOST.md, "Start-up")', async () => {
    for (const args of [['--browser', 'x.wasm'], ['--browser=firefox', 'x.wasm'], ['--help'], ['-h'], ['--fast', 'x.wasm'], ['--pool']]) {
      const early = await earlyStart(args);
      assert.deepEqual([early.mainWorker, early.threadWorkers, early.hint], [null, [], null], args.join(' '));
    }
    // arguments that do not read leave no scan: run.js scans again and says what is wrong
    assert.equal(await earlyStart(['--fast', 'x.wasm']), NOTHING_EARLY);
    // (a C main asked to run in a worker: its worker is made early)
    process.env.SPINDLE_MAIN_THREAD = 'worker';
    const early = await earlyStart(['--pool=2', 'x.wasm', 'arg']).finally(() => delete process.env.SPINDLE_MAIN_THREAD);
    await early.mainWorker.loaded;
    assert.equal(typeof early.mainWorker.adopt, 'function');
    assert.deepEqual(early.threadWorkers, []);
    await early.mainWorker.terminate();
  });
});

describe('options and help', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('defines each run option once: usage, parse, cargo\'s runner and where main runs come from the table', async () => {
    for (const option of RUN_OPTIONS) {
      assert.match(runUsage, new RegExp(`^    ${option.flag}\\b`, 'm'), `run --help lacks ${option.flag}`);
      if (option.cargo) assert.ok(cargoUsage.includes(option.synopsis), `cargo --help lacks ${option.synopsis}`);
    }
    const argv = ['--pool', '3', '--env=A=1', '--max-threads=9', '--compile', 'eager', '--preload=x', '--mount', '/d=/tmp', 'a.wasm', '--pool=1'];
    const inBrowser = ['--browser', '--pool', '3', '--env=A=1', '--mount=/o=opfs:x', 'a.wasm'];
    assert.deepEqual(parseRunArgs(inBrowser, (await earlyStart(inBrowser)).scan), parseRunArgs(inBrowser));
    const opts = parseRunArgs(argv);
    assert.deepEqual([opts.poolSize, opts.env, opts.maxThreads, opts.compilation, opts.preload, opts.mounts, opts.args],
      [3, { A: '1' }, 9, 'eager', ['x'], [{ path: '/d', hostDir: '/tmp' }], ['a.wasm', '--pool=1']]);
    assert.deepEqual(Object.keys(programOptions(opts)).sort(), ['args', 'env', 'maxThreads', 'mounts', 'poolSize', 'preload', 'waitForPool']);
    // cargo passes the run options on to its runner (a value given apart joined with =), the rest to cargo
    const cargo = parseCargoArgs(['--pool', '2', '--env', '--browser', 'run', '--mount=/d=/tmp', '--code-cache=off', '--', 'x']);
    assert.deepEqual(cargo.runner, ['--pool=2', '--env', '--browser', '--mount=/d=/tmp']);
    assert.deepEqual(cargo.cargoArgs, ['run', '--code-cache=off', '--', 'x']); // (not one of cargo's)
    assert.ok(!cargoUsage.includes('--code-cache'));
    assert.equal(mainRunsHere(['--wait-for-pool', 'a.wasm']), false);
  });

  it('accepts --opt VALUE as well as --opt=VALUE for cc, run and bench', async () => {
    const wasm = join(out, 'limits-spaced.wasm');
    const cc = await exec(spindle, ['cc', '-O2', '--max-memory', '32M', '--malloc', 'dlmalloc', '--thread-stack-size', '512K',
      join(src, 'stack_and_memory.c'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    assert.equal(importedMemory(readFileSync(wasm)).maximum, 32 * 16);
    const limits = await exec(spindle, ['run', '--pool', '2', wasm]);
    assert.equal(limits.code, 0, limits.stderr);
    assert.match(limits.stdout, /default thread stack: 524288\n/);

    const env = join(out, 'args_env.wasm');
    assert.equal((await exec(spindle, ['cc', join(root, 'tests', 'programs', 'args_env.c'), '-o', env])).code, 0);
    const r = await exec(spindle, ['run', '--env', 'SPINDLE_TEST_GREETING=hi there', '--env=SPINDLE_TEST_EMPTY=', env, 'x']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /env SPINDLE_TEST_GREETING=\[hi there\]/);
    assert.match(r.stdout, /env SPINDLE_TEST_EMPTY=\[\]/);
    assert.match(r.stdout, /argv\[1\]=\[x\]/);

    // a value is taken from the next argument: its check names it
    for (const [args, message] of [[['bench', '--runs', 'zero'], /--runs=zero: expected a positive integer/],
      [['cc', '--malloc', 'tcmalloc', '-c', 'x.c'], /--malloc=tcmalloc: choose one of/],
      [['run', '--pool', '0', env], /--pool=0: expected a positive integer/],
      [['run', '--pool'], /--pool: give a number of workers/],
      [['run', '--browser=yes', env], /--browser=yes: expected chromium, firefox or webkit/],
      [['bench', '--browser=safari'], /--browser=safari: expected chromium, firefox or webkit/],
      // V8's compilation modes are refused for Firefox and WebKit, in one line
      [['run', '--browser=firefox', '--compile=eager', env], /^spindle: --compile=eager sets V8's compiler, which only Node and Chromium have; Firefox \(SpiderMonkey\) .*\n$/],
      [['run', '--browser=webkit', '--compile=lazy', env],
        /^spindle: --compile=lazy sets V8's compiler, which only Node and Chromium have; WebKit \(JavaScriptCore\) compiles wasm its own way \(leave the option out\)\n$/],
      // an OPFS mount in WebKitGTK (no sync access handles there): one line, before any browser starts
      [['run', '--browser=webkit', '--mount=/data=opfs', env],
        /^spindle: --mount \/data=opfs: Linux WebKit \(WebKitGTK\) has no OPFS sync access handles, which OPFS mounts need; use --browser=chromium or firefox\n$/]]) {
      const bad = await exec(spindle, args);
      assert.equal(bad.code, 1, args.join(' '));
      assert.match(bad.stderr, message);
      assert.doesNotMatch(bad.stderr, /\n\s+at /); // no JS stack
    }

    // a browser that is not installed: one line saying how to get it
    const missing = await exec(spindle, ['run', '--browser=firefox', env], { env: { ...process.env, SPINDLE_FIREFOX: join(out, 'no-firefox') } });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^spindle: firefox not found at .*no-firefox: install it with `sudo apt-get install firefox-esr` \(or scripts\/setup\.sh\)/);
    assert.equal(missing.stderr.split('\n').length, 2);
    for (const [variable, message] of [['SPINDLE_WEBKIT', /^spindle: webkit not found at .*no-webkit: install it with `sudo apt-get install libwebkit2gtk-4\.1-0` \(WebKitGTK's MiniBrowser; or scripts\/setup\.sh\), or set SPINDLE_WEBKIT to its path\n$/],
      ['SPINDLE_XVFB', /^spindle: Xvfb \(which webkit runs under\) not found at .*no-xvfb: install it with `sudo apt-get install xvfb` \(or scripts\/setup\.sh\), or set SPINDLE_XVFB to its path\n$/]]) {
      const none = await exec(spindle, ['run', '--browser=webkit', env], { env: { ...process.env, [variable]: join(out, variable === 'SPINDLE_XVFB' ? 'no-xvfb' : 'no-webkit') } });
      assert.equal(none.code, 1);
      assert.match(none.stderr, message);
    }
  });

  it('prints each command\'s own usage with every Spindle flag', async () => {
    const flags = {
      cc: ['--malloc', '--fs', '--max-memory', '--stack-size', '--thread-stack-size', '--preload-file', '--bare', '--host', '--as-root', '--help-clang'],
      'c++': ['--malloc', '--max-memory', '--help-clang'],
      run: ['--browser', '--env', '--pool', '--max-threads', '--preload', '--mount'],
      bench: ['--node', '--browser', '--threads', '--runs', '--quick', '--only', '--variants', '--out', '--open',
        '--build-only', '--prebuilt', '--from'],
      cargo: ['--malloc', '--host', '--as-root', '--keep-names', '--no-stack-check', '--browser', '--mount', '--max-threads', '--compile'],
    };
    const overview = await exec(spindle, ['--help']);
    assert.equal(overview.code, 0);
    for (const [command, list] of Object.entries(flags)) {
      const r = await exec(spindle, [command, '--help']);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`^usage: spindle ${command === 'c++' ? 'cc' : command}`));
      for (const flag of list) {
        assert.match(r.stdout, new RegExp(`${flag}\\b`), `${command} --help lacks ${flag}`);
        assert.ok(overview.stdout.includes(flag), `spindle --help lacks ${command} ${flag}`);
      }
    }
    const cc = await exec(spindle, ['cc', '--help']);
    assert.match(cc.stdout, /Every other argument goes to clang/);
    const clangHelp = await exec(spindle, ['cc', '--help-clang']);
    assert.equal(clangHelp.code, 0, clangHelp.stderr);
    assert.match(clangHelp.stdout, /USAGE: clang/);
    // after the module, --help is the program's argument
    const env = join(out, 'args_env.wasm');
    const r = await exec(spindle, ['run', env, '--help']);
    assert.match(r.stdout, /argv\[1\]=\[--help\]/);
  });
});
