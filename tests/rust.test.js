// `spindle cargo`: the workspace tests/rust (rayon and cc from crates.io, pinned by its
// Cargo.lock) is built once, then each check of tests/rust/checks runs in Node and Chromium;
// a plain `cargo new` project is built and run too. docs/RUST.md.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { browserFlag, browserTitle, testBrowsers } from './lib/browsers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'rust');
const targetDir = join(out, 'target');
const checks = join(targetDir, 'wasm32-wasip1-threads', 'release', 'checks.wasm');
const buildTimeoutMs = 15 * 60 * 1000;
const env = { ...process.env, CARGO_TARGET_DIR: targetDir };

const cargo = (args, cwd) => exec('bash', ['-c', 'cd "$0" && exec "$@"', cwd, spindle, 'cargo', ...args],
  { env, timeoutMs: buildTimeoutMs });
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
    for (const browser of testBrowsers) { // the runner's --browser=NAME reaches spindle run
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
    const { checkAllocator, rustcArgs } = await import('../cli/rust-linker.js');
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
    const linker = await exec(join(root, 'cli', 'rust-linker.js'), ['-o', 'x.wasm']);
    assert.equal(linker.code, 1);
    assert.match(linker.stderr, /is the linker of `spindle cargo`; build through it/);
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
    for (const [name, [args, expected]] of Object.entries(expectations(cores ?? '\\d+'))) {
      it(name, async () => {
        const got = ok(await run([checks, ...args], browser), name);
        assert.match(got, expected);
        if (name === 'rayon' && browser) {
          const [, pool, counted] = /pool=(\d+) cores=(\d+)/.exec(got);
          assert.equal(pool, counted, 'rayon\'s pool has one thread per core');
        }
      });
    }

    it('a panic in a thread: its message, exit status 134, no trap', async () => {
      const got = await run([checks, 'panic'], browser);
      assert.equal(got.code, 134, got.stderr);
      assert.match(got.stderr, /panicked at checks\/src\/main\.rs:\d+:\d+:\nworker gave up on purpose\n/);
      assert.ok(!/trap|wasm-function/.test(got.stderr), got.stderr);
      assert.ok(!got.stdout.includes('still running'), 'the program went on after the panic');
    });

    it('--preload puts host files in the tree', async () => {
      const dir = join(out, `preload-${browser ?? 'node'}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'a.txt'), 'from the host\n');
      assert.equal(ok(await run([`--preload=${dir}@/in`, checks, 'read-tree', '/in'], browser), 'read-tree'), '/in/a.txt = from the host\n');
    });

    // Node 20's Liftoff lost this receiver's wake-up until each wait became a call (docs/HOST.md).
    it('channels: the receiver blocks while producers send', async () => {
      const got = await exec(spindle, ['run', ...(browser ? [browserFlag(browser)] : []), checks, 'channels-blocking'], { timeoutMs: 15000 });
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
    const viaCargo = await cargo(['run', '--quiet', '--release', '--locked', `--mount=/data=${dir}`, '--', 'read-tree', '/data'], join(root, 'tests', 'rust'));
    assert.equal(ok(viaCargo, 'spindle cargo run --mount'), '/data/a.txt = on the host\n/data/written.txt = written by rust\n');
  });
});
