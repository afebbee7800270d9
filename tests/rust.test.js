// `spindle cargo`: the workspace tests/rust (rayon and cc from crates.io, pinned by its
// Cargo.lock) is built once, then each check of tests/rust/checks runs in Node and Chromium;
// a plain `cargo new` project is built and run too. docs/RUST.md.
// In the browsers, for CI's time (issue 38: a browser's launch was most of each run), a check runs
// as `spindle run --browser`'s own job in a browser kept open for its browser's suite, its page
// reloaded after each job, with stdio in memory (tests/lib/browser-jobs.js, as
// tests/programs.test.js): the same stdout, stderr and exit code. What goes through the CLI and
// cargo's runner themselves still launches a browser each: `cargo run --browser=NAME` of a plain
// project and --preload (packed by the CLI, which BrowserJobs refuses) in each browser.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BrowserJobs } from './lib/browser-jobs.js';
import { browserFlag, browserTitle, runBrowsers, testBrowsers } from './lib/browsers.js';
import { exec } from './lib/exec.js';
import { sections } from '../host/compile/module-info.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'rust');
const targetDir = join(out, 'target');
const checks = join(targetDir, 'wasm32-wasip1-threads', 'release', 'checks.wasm');
// tests/rust/link-options: the stack check and the link options (no dependencies: quick to rebuild)
const linkOptions = join(targetDir, 'wasm32-wasip1-threads', 'release', 'link-options.wasm');
const buildTimeoutMs = 15 * 60 * 1000;
const env = { ...process.env, CARGO_TARGET_DIR: targetDir };

const cargo = (args, cwd, moreEnv = {}) => exec('bash', ['-c', 'cd "$0" && exec "$@"', cwd, spindle, 'cargo', ...args],
  { env: { ...env, ...moreEnv }, timeoutMs: buildTimeoutMs });
// `browser`: null for Node, else a browser's name (tests/lib/browsers.js)
const run = (args, browser = null) => exec(spindle, ['run', ...(browser ? [browserFlag(browser)] : []), ...args], { timeoutMs: 120000 });

function ok(r, what) {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code})\n--- stdout ---\n${r.stdout.slice(-3000)}\n--- stderr ---\n${r.stderr.slice(-3000)}`);
  return r.stdout;
}

before(async () => {
  mkdirSync(out, { recursive: true });
  ok(await cargo(['build', '--release', '--locked'], join(root, 'tests', 'rust')), 'spindle cargo build of tests/rust');
});

describe('spindle cargo: the link', () => {
  it('binds malloc and every WASI file call to Spindle\'s runtime', () => {
    const names = execFileSync('wasm-objdump', ['-x', '-j', 'Name', checks], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.ok(!/<dlmalloc>/.test(names), 'wasi-libc\'s dlmalloc is still in the module');
    const imports = execFileSync('wasm-objdump', ['-x', '-j', 'Import', checks], { encoding: 'utf8' });
    // Left as imports: the runtime's own way to the host's fds (host_*, stdio) and wasi-libc's
    // calls that are not about files (args, clocks, randomness, exit).
    const unbound = [...imports.matchAll(/<([^<>\s]+)> <- wasi_snapshot_preview1\.(\w+)/g)]
      .filter(([, symbol, call]) => !symbol.startsWith('host_') && (!symbol.startsWith('__imported_') || /^(path_|fd_)/.test(call)))
      .map(([, symbol]) => symbol);
    assert.deepEqual(unbound, [], 'WASI imports that bypass Spindle\'s runtime');
  });

  it('builds and runs a plain `cargo new` project, and --preload-file puts files in it', async () => {
    const dir = join(out, 'plain');
    rmSync(dir, { recursive: true, force: true });
    execFileSync('cargo', ['new', '--quiet', '--vcs=none', dir], { env: { ...env, RUSTUP_TOOLCHAIN: readPinnedRust() } });
    const plainEnv = { ...env, CARGO_TARGET_DIR: join(dir, 'target') };
    const plain = (args) => exec('bash', ['-c', 'cd "$0" && exec "$@"', dir, spindle, 'cargo', ...args], { env: plainEnv, timeoutMs: buildTimeoutMs });
    assert.equal(ok(await plain(['run', '--quiet', '--release']), 'cargo run'), 'Hello, world!\n');
    for (const browser of runBrowsers) { // the runner's --browser=NAME reaches spindle run
      assert.equal(ok(await plain(['run', '--quiet', '--release', `--browser=${browser}`]), `cargo run --browser=${browser}`), 'Hello, world!\n');
    }
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'note.txt'), 'packed at link time');
    writeFileSync(join(dir, 'src', 'main.rs'),
      'fn main() { print!("{}", std::fs::read_to_string("/assets/note.txt").unwrap()); }\n');
    assert.equal(ok(await plain(['run', '--quiet', '--release', '--preload-file', 'assets@/assets']), 'cargo run --preload-file'),
      'packed at link time');
    // The same program built by plain cargo has no files under spindle run, and is told so.
    const plainTarget = join(dir, 'plain-target');
    execFileSync('cargo', ['build', '--quiet', '--release', '--target', 'wasm32-wasip1-threads', '--target-dir', plainTarget],
      { cwd: dir, env: { ...env, RUSTUP_TOOLCHAIN: readPinnedRust() } });
    const prebuilt = await run([join(plainTarget, 'wasm32-wasip1-threads', 'release', `${basename(dir)}.wasm`)]);
    assert.notEqual(prebuilt.code, 0);
    assert.match(prebuilt.stderr, /^spindle: this module has no filesystem of its own .* Rebuild it with spindle cc \/ spindle cargo/);
  });

  it('runs `cargo test` through spindle run', async () => {
    const got = ok(await cargo(['test', '--release', '--locked'], join(root, 'tests', 'rust')), 'spindle cargo test');
    assert.match(got, /test result: ok\. 2 passed; 0 failed/);
  });

  it('puts the runtime before rustc\'s -l c and fails if malloc still came from libc', async () => {
    const { checkAllocator, rustcArgs } = await import('../cli/cargo/rust-linker.js');
    const { kept, libcAt } = rustcArgs(['crt1.o', 'main.o', '--import-memory', 'std.rlib', '-l', 'c', 'core.rlib',
      '-z', 'stack-size=1048576', '--max-memory=1073741824', '-o', 'x.wasm']);
    assert.deepEqual(kept, ['crt1.o', 'main.o', 'std.rlib', '-l', 'c', 'core.rlib', '-o', 'x.wasm']);
    assert.equal(libcAt, 3);
    assert.throws(() => checkAllocator(['/r/lib/self-contained/libc.a(dlmalloc.o)'], 'spindle'),
      /malloc came from .*libc\.a\(dlmalloc\.o\), not --malloc=spindle: the runtime archives were not linked before libc/);
    checkAllocator(['/t/libspindle-alloc.a(malloc_api.o)'], 'spindle');
    checkAllocator(['/r/libc.a(dlmalloc.o)'], 'dlmalloc');
  });

  it('refuses what it cannot do with a clear message', async () => {
    const bad = await exec(spindle, ['cargo', '--malloc=glibc', 'build']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^spindle: --malloc=glibc: choose one of spindle, dlmalloc, mimalloc\n$/);
    const linker = await exec(join(root, 'cli', 'cargo', 'rust-linker.js'), ['-o', 'x.wasm']);
    assert.equal(linker.code, 1);
    assert.match(linker.stderr, /is the linker of `spindle cargo`; build through it/);
  });
});

// tests/rust/link-options built into its own target directory with other options or profile.
async function buildLinkOptions(name, flags, { profile = 'release', moreEnv = {} } = {}) {
  const dir = join(out, name);
  const profileArgs = profile === 'release' ? ['--release'] : [];
  const r = await cargo([...flags, 'build', ...profileArgs, '--locked', '-p', 'link-options'], join(root, 'tests', 'rust'),
    { CARGO_TARGET_DIR: dir, ...moreEnv });
  ok(r, `spindle cargo ${flags.join(' ')} build (${profile})`);
  const wasm = join(dir, 'wasm32-wasip1-threads', profile, 'link-options.wasm');
  return { wasm, bytes: readFileSync(wasm) };
}

const customSections = (bytes) => [...sections(bytes)].filter((s) => s.id === 0).map((s) => s.name);

describe('spindle cargo: the stack check and the link options (Node)', () => {
  it('reports a recursion too deep for main\'s stack, as in C: exit 134', async () => {
    const r = await run([linkOptions, 'recurse', 'main', '1000000']);
    assert.equal(r.code, 134, `${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, 'recursing\n');
    assert.match(r.stderr, /^spindle: thread main: stack overflow \(limit 1024 KiB, raise it with --stack-size\)\n/);
  });

  it('bounds a std::thread by the stack size it asked for', async () => {
    const r = await run([linkOptions, 'recurse', 'thread', '1000000', String(512 << 10)]);
    assert.equal(r.code, 134, `${r.stdout}${r.stderr}`);
    // std, not --thread-stack-size, sized it, and the message says so
    assert.match(r.stderr, /^spindle: thread \d+: stack overflow \(limit 512 KiB, raise the size the thread is created with \(pthread_attr_setstacksize; Rust: thread::Builder::stack_size or RUST_MIN_STACK\)\)\n/);
    // ~600 KiB deep: more than the C default of 256 KiB, within the thread's own 1 MiB
    assert.equal(ok(await run([linkOptions, 'recurse', 'thread', '150', String(1 << 20)]), 'recurse in 1 MiB'), 'recursing\ndone sum=0\n');
  });

  it('checks a dev-profile build too, dropping its DWARF', async () => {
    const { wasm, bytes } = await buildLinkOptions('dev', [], { profile: 'debug' });
    assert.ok(!customSections(bytes).some((name) => name.startsWith('.debug_')), customSections(bytes).join(' '));
    const r = await run([wasm, 'recurse', 'main', '1000000']);
    assert.equal(r.code, 134, `${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /^spindle: thread main: stack overflow /);
  });

  it('--as-root, --keep-names and --no-stack-check', async () => {
    assert.equal(ok(await run([linkOptions, 'uid']), 'uid'), 'uid=1000\n');
    // strip = "symbols" would drop the name section; --keep-names keeps it
    const { wasm, bytes } = await buildLinkOptions('options', ['--as-root', '--keep-names', '--no-stack-check'],
      { moreEnv: { CARGO_PROFILE_RELEASE_STRIP: 'symbols' } });
    assert.equal(ok(await run([wasm, 'uid']), 'uid --as-root'), 'uid=0\n');
    assert.ok(customSections(bytes).includes('name'), customSections(bytes).join(' '));
    // unchecked, main's overflow wraps below address 0 and traps; the trace names the function
    const unchecked = await run([wasm, 'recurse', 'main', '1000000']);
    assert.ok(!unchecked.stderr.includes('stack overflow'), unchecked.stderr);
    assert.match(unchecked.stderr, /trap: memory access out of bounds\n\s+at [^\n]*link_options7recurse/);
  });
});

function readPinnedRust() {
  return /^RUST_TOOLCHAIN=(.*)$/m.exec(readFileSync(join(root, 'scripts', 'versions.env'), 'utf8'))[1];
}

// What each check prints, for a host with `cores` cores.
const expectations = (cores) => ({
  sync: [['sync'], /^sync counter=40000 expected=40000\n$/],
  channels: [['channels'], /^channels sum=7998000 expected=7998000\n$/],
  rayon: [['rayon'], new RegExp(`^rayon sum=5999995 pool=${cores} cores=${cores} own_pool=${cores} workers_used=${cores}\\n$`)],
  files: [['files'], /^files sizes=\[1000, 2000, 3000, 4000\] entries_left=1 after_remove=NotFound\n$/],
  'c-files': [['c-files'], /^c-files wrote=15 text=HELLO FROM RUST\n$/],
  poll: [['poll'], /^poll-file err=0 events=\["7:type1:err0:nbytes7"\] quick=true\npoll-clock err=0 events=\["9:type0:err0:nbytes0"\] waited=true\n$/],
  sleep: [['sleep', '20'], /^slept at_least=true\n$/],
});

for (const browser of [null, ...testBrowsers]) {
  describe(`spindle cargo programs in ${browser ? browserTitle[browser] : 'Node'}`, () => {
    // Node's core count is the test's; a browser's is its navigator.hardwareConcurrency.
    const cores = browser ? null : availableParallelism();
    // a browser's runs are jobs in one browser kept open for this suite (tests/lib/browser-jobs.js)
    const jobs = browser ? new BrowserJobs() : null;
    after(() => jobs?.close());
    const runCheck = (args, timeoutMs = 120000) => (jobs ? jobs.run([browserFlag(browser), ...args], { timeoutMs })
      : exec(spindle, ['run', ...args], { timeoutMs }));
    for (const [name, [args, expected]] of Object.entries(expectations(cores ?? '\\d+'))) {
      it(name, async () => {
        const got = ok(await runCheck([checks, ...args]), name);
        assert.match(got, expected);
        if (name === 'rayon' && browser) {
          const [, pool, counted] = /pool=(\d+) cores=(\d+)/.exec(got);
          assert.equal(pool, counted, 'rayon\'s pool has one thread per core');
        }
      });
    }

    it('a panic in a thread: its message, exit status 134, no trap', async () => {
      const got = await runCheck([checks, 'panic']);
      assert.equal(got.code, 134, got.stderr);
      assert.match(got.stderr, /panicked at checks\/src\/main\.rs:\d+:\d+:\nworker gave up on purpose\n/);
      assert.ok(!/trap|wasm-function/.test(got.stderr), got.stderr);
      assert.ok(!got.stdout.includes('still running'), 'the program went on after the panic');
    });

    it('a std::thread that overflows its stack: reported, exit 134', async () => {
      const got = await runCheck([linkOptions, 'recurse', 'thread', '1000000', String(512 << 10)]);
      assert.equal(got.code, 134, got.stderr);
      assert.match(got.stderr, /spindle: thread \d+: stack overflow \(limit 512 KiB, /);
    });

    // through the CLI in a browser too: it packs the files (BrowserJobs refuses --preload)
    it('--preload puts host files in the tree', async () => {
      const dir = join(out, `preload-${browser ?? 'node'}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'a.txt'), 'from the host\n');
      assert.equal(ok(await run([`--preload=${dir}@/in`, checks, 'read-tree', '/in'], browser), 'read-tree'), '/in/a.txt = from the host\n');
    });

    // Node 20's Liftoff lost this receiver's wake-up until each wait became a call (docs/HOST.md).
    it('channels: the receiver blocks while producers send', async () => {
      const got = await runCheck([checks, 'channels-blocking'], 15000);
      assert.match(ok(got, 'channels-blocking'), /^channels sum=7998000 expected=7998000 pingpong=100\n$/);
    });
  });
}

describe('spindle cargo with a host directory (Node)', () => {
  it('--mount reads and writes host files in place, also as a cargo run option', async () => {
    const dir = join(out, 'mounted');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.txt'), 'on the host\n');
    assert.equal(ok(await run([`--mount=/data=${dir}`, checks, 'read-tree', '/data', 'write']), 'read-tree'), '/data/a.txt = on the host\n');
    assert.equal(readFileSync(join(dir, 'written.txt'), 'utf8'), 'written by rust');
    const viaCargo = await cargo(['run', '--quiet', '--release', '--locked', '--bin', 'checks', `--mount=/data=${dir}`, '--', 'read-tree', '/data'], join(root, 'tests', 'rust'));
    assert.equal(ok(viaCargo, 'spindle cargo run --mount'), '/data/a.txt = on the host\n/data/written.txt = written by rust\n');
  });
});
