// The compiled-code cache (host/code-cache/, docs/HOST.md "Compiled-code cache"): a module's first
// run compiles lazily under V8's defaults and has its TurboFan code made for them after it; later
// runs load that code instead of compiling. A file the cache cannot trust (damaged, cut short, made
// under other V8 flags, in a directory others may write) is never handed to V8, or refused by V8:
// the module compiles as without a cache, the program's output is the same, and the code is made
// again.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pruneCache, readCode, unusableReason, writeCode } from '../host/code-cache/store.js';
import { codeCacheAddon } from '../host/code-cache/addon.js';
import { restamp, TURBOFAN_FLAGS } from '../host/code-cache/defaults-stamp.js';
import { exec } from './lib/exec.js';
import { removeCodeCache } from './lib/code-cache-dir.js';
import { makersDone } from '../cli/common/turbofan-maker.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'code-cache');
const hello = join(out, 'hello.wasm');
const envWasm = join(out, 'env.wasm');
const scratch = mkdtempSync(join(tmpdir(), 'spindle-code-cache-'));
const hasAddon = Boolean(codeCacheAddon().addon);
let dirs = 0;
const freshDir = () => join(scratch, `cache-${++dirs}`);

/** Runs hello.wasm with the cache in `dir`; { cache: what the cache did, stdout, code }. */
async function runHello(dir, ...options) {
  const r = await exec(spindle, ['run', `--code-cache=${dir}`, ...options, hello], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
  const cache = /\[spindle\] code cache: (.*)/.exec(r.stderr)?.[1];
  return { cache, stdout: r.stdout, code: r.code, stderr: r.stderr };
}
const cacheFiles = (dir) => readdirSync(dir).filter((n) => n.endsWith('.code')).map((n) => join(dir, n));

/** Waits until `dir` holds `count` code files and no maker is at work (cli/common/turbofan-maker.js). */
async function codeMade(dir, count = 1) {
  const making = () => readdirSync(dir).some((n) => n.endsWith('.making'));
  for (let waited = 0; cacheFiles(dir).length < count || making(); waited += 100) {
    assert.ok(waited < 60000, 'no TurboFan code made within 60 s of the run');
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('compiled-code cache', { skip: !hasAddon && 'no code-cache addon for this Node (scripts/build-code-cache-addon.sh)' }, () => {
  before(async () => {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'hello.c'), '#include <stdio.h>\nint main(void) { puts("hello from the cache"); return 0; }\n');
    const r = await exec(spindle, ['cc', '-O2', join(out, 'hello.c'), '-o', hello]);
    assert.equal(r.code, 0, r.stderr);
    writeFileSync(join(out, 'env.c'), '#include <stdio.h>\n#include <stdlib.h>\nint main(void) { const char *v = getenv("NODE_COMPILE_CACHE");\n' +
      '  printf("NODE_COMPILE_CACHE %s\\n", v ? v : "unset"); return 0; }\n');
    const e = await exec(spindle, ['cc', '-O2', join(out, 'env.c'), '-o', envWasm]);
    assert.equal(e.code, 0, e.stderr);
  });
  after(() => removeCodeCache(scratch));

  it('has the code made after the first run and loads it on the next, with the same output', async () => {
    const dir = freshDir();
    const first = await runHello(dir);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.cache, 'miss (none cached)');
    assert.equal(first.stdout, 'hello from the cache\n');
    await codeMade(dir);
    const second = await runHello(dir);
    assert.equal(second.cache, 'hit');
    assert.equal(second.stdout, 'hello from the cache\n');
    assert.equal(second.code, 0);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const [file] = cacheFiles(dir);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('spindle cc puts a linked module\'s code in the cache, so its first run finds it', async () => {
    const dir = freshDir();
    const wasm = join(out, 'prefilled.wasm');
    const link = (env) => exec(spindle, ['cc', '-O2', join(out, 'hello.c'), '-o', wasm],
      { env: { ...process.env, SPINDLE_CODE_CACHE_DIR: dir, SPINDLE_CODE_CACHE_PREFILL: '1', ...env } });
    const stored = () => existsSync(dir) && cacheFiles(dir).length > 0;
    let r = await link({ SPINDLE_CODE_CACHE: '0' });
    assert.equal(r.code, 0, r.stderr);
    await new Promise((done) => setTimeout(done, 3000)); // no compile started: nothing comes
    assert.equal(stored(), false, 'SPINDLE_CODE_CACHE=0 still filled the cache');
    r = await link({});
    assert.equal(r.code, 0, r.stderr);
    // the link took the maker's marker before it ended, so a run started now finds it even while
    // the maker's Node still boots (before, a run that came first missed the code: CI, Node 22)
    assert.ok(readdirSync(dir).some((f) => f.endsWith('.making') || f.endsWith('.code')), readdirSync(dir).join(' '));
    // run at once, as `spindle cc ... && spindle run ...` does: it waits for the link's maker
    const first = await exec(spindle, ['run', `--code-cache=${dir}`, wasm], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
    assert.match(first.stderr, /\[spindle\] code cache: hit/);
    assert.equal(first.stdout, 'hello from the cache\n');
    assert.ok(stored());
  });

  it('the loaded code is TurboFan\'s, compiled before its first call, under V8\'s defaults and under TURBOFAN_FLAGS', async () => {
    const probe = (flags, dir, arg) => exec(process.execPath, ['--allow-natives-syntax', ...flags, join(root, 'tests', 'compilation', 'probe.mjs'), arg],
      { env: { ...process.env, PROBE_CODE_CACHE: dir } });
    const defaults = freshDir();
    mkdirSync(defaults, { mode: 0o700 });
    const made = await probe([], defaults, 'make:30');
    assert.equal(made.stdout.trim(), 'miss, made', made.stderr);
    const loaded = await probe([], defaults, 'cached:30');
    assert.equal(loaded.stdout.trim(), 'hit compiled optimized', loaded.stderr);
    // a Node started with TURBOFAN_FLAGS compiles eagerly and keeps its own code
    const flags = freshDir();
    const first = await probe(TURBOFAN_FLAGS, flags, 'cached:30');
    assert.equal(first.stdout.trim(), 'stored compiled optimized', first.stderr);
    const second = await probe(TURBOFAN_FLAGS, flags, 'cached:30');
    assert.equal(second.stdout.trim(), 'hit compiled optimized', second.stderr);
  });

  it('stamps code only for the V8 it was made by: only the flags\' hash may differ', () => {
    const code = Buffer.from('a906dec052bdff97ff3e0200ffcb16f500f0000000000000', 'hex');
    const stamp = Buffer.from('a906dec052bdff97ff3e0200b3f544cf', 'hex');
    assert.equal(restamp(code, stamp).toString('hex'), 'a906dec052bdff97ff3e0200b3f544cf00f0000000000000');
    const otherCpu = Buffer.from(stamp);
    otherCpu[9] ^= 1;
    const otherVersion = Buffer.from(stamp);
    otherVersion[5] ^= 1;
    assert.deepEqual([restamp(code, otherCpu), restamp(code, otherVersion), restamp(code.subarray(0, 16), stamp), restamp(code, stamp.subarray(0, 12))],
      [null, null, null, null]);
  });

  for (const [what, damage, why] of [
    ['a flipped byte', (bytes) => { bytes[bytes.length - 100] ^= 0x40; return bytes; }, 'a damaged file'],
    ['a file cut short', (bytes) => bytes.subarray(0, bytes.length >> 1), 'a damaged file'],
    ['code made under other V8 flags (its V8 header changed, its checksum made to match)', null, 'V8 refused the code cached (another V8, CPU or flags)'],
  ]) {
    it(`compiles as without a cache, and has the code made anew, on ${what}`, async () => {
      const dir = freshDir();
      assert.equal((await runHello(dir)).cache, 'miss (none cached)');
      await codeMade(dir);
      const [file] = cacheFiles(dir);
      if (damage) writeFileSync(file, damage(readFileSync(file)));
      else writeFileSync(file, withOtherFlagHash(readFileSync(file)));
      const again = await runHello(dir);
      assert.equal(again.cache, `miss (${why})`);
      assert.equal(again.stdout, 'hello from the cache\n');
      await codeMade(dir);
      assert.equal((await runHello(dir)).cache, 'hit');
    });
  }

  it('runs a big module on Liftoff once, then the TurboFan code made after that run', async () => {
    const dir = freshDir();
    const big = join(out, 'iostream.wasm');
    writeFileSync(join(out, 'iostream.cpp'), '#include <iostream>\nint main() { std::cout << "hello from iostream" << std::endl; }\n');
    const built = await exec(spindle, ['c++', '-O2', join(out, 'iostream.cpp'), '-o', big]);
    assert.equal(built.code, 0, built.stderr);
    const runBig = async () => {
      const r = await exec(spindle, ['run', `--code-cache=${dir}`, big], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
      assert.equal(r.stdout, 'hello from iostream\n', r.stderr);
      return { tiers: /V8 tiers: (\S+)/.exec(r.stderr)?.[1], cache: /\[spindle\] code cache: (.*)/.exec(r.stderr)?.[1],
        started: /\[spindle\] V8 flags: (.*)/.exec(r.stderr)?.[1] };
    };
    assert.deepEqual(await runBig(), { tiers: 'tiered', cache: 'miss (none cached)', started: undefined });
    // the run has ended; its TurboFan code comes from a process of its own
    await codeMade(dir);
    assert.deepEqual(await runBig(), { tiers: 'optimized', cache: 'hit', started: undefined });
  });

  it('keeps the program\'s exit status, and leaves no marker, when the code cannot be made', async () => {
    const dir = freshDir();
    // (the stamp's Node is started with the run's options, and the probe module has no imports: an Instance that needs them throws)
    const broken = 'const I=WebAssembly.Instance;WebAssembly.Instance=function(m,i){if(!i)throw new Error("no imports");return new I(m,i)}';
    const r = await exec(process.execPath, ['--import', `data:text/javascript,${broken}`, spindle, 'run', `--code-cache=${dir}`, hello],
      { env: { ...process.env, SPINDLE_DEBUG: '1' } });
    assert.deepEqual([r.code, r.stdout], [0, 'hello from the cache\n'], r.stderr);
    assert.match(r.stderr, /\[spindle\] code cache: miss \(none cached\)\n/);
    assert.ok(await makersDone(dir), 'the maker is still at work');
    assert.deepEqual(cacheFiles(dir), []);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.making')), []);
    // the next run's miss says why the maker stored nothing (its note goes once code is stored)
    const again = await exec(spindle, ['run', `--code-cache=${dir}`, hello], { env: { ...process.env, SPINDLE_DEBUG: '1', SPINDLE_CODE_CACHE_PREFILL: '0' } });
    assert.match(again.stderr, /\[spindle\] code cache: miss \(its last maker: no stamp: [^\n]*no imports[^\n]*\)\n/);
    await codeMade(dir);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.unmade')), []);
  });

  it('has the code made for a program that a thread ends with exit()', async () => {
    const dir = freshDir();
    const source = join(out, 'thread-exit.c');
    const wasm = join(out, 'thread-exit.wasm');
    writeFileSync(source, '#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n' +
      'static void *f(void *a) { puts("thread exits"); fflush(stdout); exit(3); return a; }\n' +
      'int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); for (;;) sleep(1); }\n');
    const built = await exec(spindle, ['cc', '-O2', source, '-o', wasm], { env: { ...process.env, SPINDLE_CODE_CACHE: '0' } });
    assert.equal(built.code, 0, built.stderr);
    const run = () => exec(spindle, ['run', `--code-cache=${dir}`, wasm], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
    const first = await run();
    assert.deepEqual([first.code, first.stdout], [3, 'thread exits\n'], first.stderr);
    assert.match(first.stderr, /\[spindle\] code cache: miss \(none cached\)\n/);
    await codeMade(dir);
    const second = await run();
    assert.deepEqual([second.code, second.stdout], [3, 'thread exits\n'], second.stderr);
    assert.match(second.stderr, /\[spindle\] code cache: hit\n/);
  });

  it('does not use a directory others may write, or one that is a file', async () => {
    const open = freshDir();
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const r = await runHello(open);
    assert.match(r.cache, /^off: .* is writable by others \(mode 777\)$/);
    assert.equal(r.stdout, 'hello from the cache\n');
    assert.deepEqual(cacheFiles(open), []);
    const file = join(scratch, 'not-a-dir');
    writeFileSync(file, '');
    assert.match((await runHello(file)).cache, /^off: /);
  });

  it('is off with --code-cache=off, SPINDLE_CODE_CACHE=0, and for lazy compiles', async () => {
    const dir = freshDir();
    const r = await exec(spindle, ['run', '--code-cache=off', hello], { env: { ...process.env, SPINDLE_DEBUG: '1' } });
    assert.match(r.stderr, /\[spindle\] code cache: off\n/);
    const env0 = await exec(spindle, ['run', `--code-cache=${dir}`, hello], { env: { ...process.env, SPINDLE_DEBUG: '1', SPINDLE_CODE_CACHE: '0' } });
    assert.match(env0.stderr, /\[spindle\] code cache: off\n/);
    assert.equal((await runHello(dir, '--compile=lazy')).cache, 'off: lazy compilation asked for');
    const bad = await exec(spindle, ['run', '--code-cache=', hello]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--code-cache=: expected on, off or a directory/);
  });

  it('keeps Spindle\'s own compiled JavaScript in its js folder on Node 22 and later, never in a program\'s --env', async () => {
    const jsFiles = (dir) => (existsSync(join(dir, 'js')) ? readdirSync(join(dir, 'js'), { recursive: true }).length : 0);
    // (Node's own files: the run bundle's code is Spindle's, kept in js/run-bundle, cli/run/script-cache.js)
    const nodeJsFiles = (dir) => (existsSync(join(dir, 'js')) ? readdirSync(join(dir, 'js'), { recursive: true }).filter((f) => !f.startsWith('run-bundle')).length : 0);
    const { NODE_COMPILE_CACHE: _user, ...env } = process.env;
    const printEnv = (dir, extra = {}, ...options) => exec(spindle, ['run', '--env', ...options, envWasm], { env: { ...env, SPINDLE_CODE_CACHE_DIR: dir, ...extra } });
    const dir = freshDir();
    let r = await printEnv(dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'NODE_COMPILE_CACHE unset\n');
    // (the run bundle's code, and Node's of the modules where it has that cache: Node 22 and later)
    assert.ok(jsFiles(dir) > 0, `no files on Node ${process.versions.node}`);
    assert.equal(statSync(join(dir, 'js')).mode & 0o777, 0o700);
    // nor in a program that a spindle started by another one runs (which inherits both variables)
    r = await printEnv(dir, { NODE_COMPILE_CACHE: join(dir, 'js'), SPINDLE_JS_COMPILE_CACHE: join(dir, 'js') });
    assert.equal(r.stdout, 'NODE_COMPILE_CACHE unset\n', r.stderr);
    // not in a cache directory others may write
    const open = freshDir();
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    r = await printEnv(open);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(jsFiles(open), 0);
    // --code-cache=DIR (either spelling) moves it with the rest of the cache
    for (const spelling of [(d) => [`--code-cache=${d}`], (d) => ['--code-cache', d]]) {
      const moved = freshDir();
      const unused = freshDir();
      r = await printEnv(unused, {}, ...spelling(moved));
      assert.equal(r.code, 0, r.stderr);
      assert.ok(jsFiles(moved) > 0, 'no files in the --code-cache directory');
      assert.equal(jsFiles(unused), 0);
    }
    // a user's own NODE_COMPILE_CACHE decides where Node keeps it, and reaches the program; off
    // with the rest of the cache
    for (const [extra, options] of [[{ NODE_COMPILE_CACHE: join(scratch, 'users-own') }, []], [{ SPINDLE_CODE_CACHE: '0' }, []], [{}, ['--code-cache=off']]]) {
      const other = freshDir();
      r = await printEnv(other, extra, ...options);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, extra.NODE_COMPILE_CACHE ? `NODE_COMPILE_CACHE ${extra.NODE_COMPILE_CACHE}\n` : 'NODE_COMPILE_CACHE unset\n');
      assert.equal((extra.NODE_COMPILE_CACHE ? nodeJsFiles : jsFiles)(other), 0, JSON.stringify(extra));
    }
  });

  it('a hit marks its file used where the last mark is an hour old; a folder is made once, then only checked', () => {
    const dir = join(freshDir(), 'deeper');
    assert.equal(unusableReason(dir), null);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(unusableReason(dir), null);
    chmodSync(dir, 0o777);
    assert.match(unusableReason(dir), /writable by others/);
    chmodSync(dir, 0o700);
    const { sha256 } = codeCacheAddon().addon;
    assert.equal(writeCode(sha256, dir, 'k', Buffer.from('code')), null);
    const file = join(dir, 'k.code');
    const now = Date.now() / 1000;
    for (const [age, marked] of [[30 * 60, false], [2 * 60 * 60, true]]) {
      utimesSync(file, now - age, now - age);
      assert.deepEqual(readCode(sha256, dir, 'k'), Buffer.from('code'));
      assert.equal(statSync(file).mtimeMs / 1000 > now - 60, marked, `last used ${age} s ago`);
    }
  });

  it('keeps the most recently used files within its size limit', () => {
    const dir = freshDir();
    mkdirSync(dir);
    const now = Date.now() / 1000;
    for (const [name, age] of [['old', 300], ['mid', 200], ['new', 100]]) {
      writeFileSync(join(dir, `${name}.code`), Buffer.alloc(1000));
      utimesSync(join(dir, `${name}.code`), now - age, now - age);
    }
    writeFileSync(join(dir, 'other.txt'), Buffer.alloc(5000));
    pruneCache(dir, 2000);
    assert.deepEqual(readdirSync(dir).sort(), ['mid.code', 'new.code', 'other.txt']);
  });

  it('says whether V8 took the cached code (`took`), and refuses a `took` it could not write safely', async () => {
    const script = `import { codeCacheAddon } from ${JSON.stringify(join(root, 'host', 'code-cache', 'addon.js'))};
      import { moduleWithBody } from ${JSON.stringify(join(root, 'tests', 'lib', 'probe-module.js'))};
      const { addon } = codeCacheAddon();
      const wire = moduleWithBody(5);
      const hold = setInterval(() => {}, 1000);
      const took = new Uint8Array([7, 7]);
      const code = addon.serialize(await addon.compile(wire, null, took));
      const first = took[0];
      await addon.compile(wire, code, took.subarray(1));
      const damaged = Buffer.from(code);
      damaged[12] ^= 0xff; // (V8's flag hash)
      const again = new Uint8Array(1);
      await addon.compile(wire, damaged, again);
      const refusals = [new Uint8Array(0), new ArrayBuffer(1), 'x', new Uint8Array(new ArrayBuffer(1, { maxByteLength: 8 }))].map((t) => {
        try { addon.compile(wire, null, t); return 'accepted'; } catch (err) { return err.message; }
      });
      clearInterval(hold);
      console.log(JSON.stringify({ first, second: took[1], damaged: again[0], refusals }));`;
    const r = await exec(process.execPath, [...TURBOFAN_FLAGS, '--input-type=module', '-e', script]);
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse(r.stdout);
    assert.deepEqual({ first: got.first, second: got.second, damaged: got.damaged }, { first: 0, second: 1, damaged: 0 });
    assert.equal(got.refusals.length, 4);
    for (const refusal of got.refusals) assert.match(refusal, /^compile: took must/);
  });

  it('refuses WebAssembly.compileStreaming calls that are not its own, with a clear error', async () => {
    const script = `import { compile } from ${JSON.stringify(join(root, 'host', 'index.js'))};
      import { moduleWithBody } from ${JSON.stringify(join(root, 'tests', 'lib', 'probe-module.js'))};
      await compile(moduleWithBody(5), { codeCache: process.argv[1] });
      try { await WebAssembly.compileStreaming(new Response(new Uint8Array(8))); console.log('accepted'); }
      catch (err) { console.log(err.constructor.name + ': ' + err.message); }`;
    const r = await exec(process.execPath, [...TURBOFAN_FLAGS, '--input-type=module', '-e', script, freshDir()]);
    assert.equal(r.stdout.trim(), 'TypeError: WebAssembly.compileStreaming is used by Spindle\'s code cache in this process', r.stderr);
  });
});

// A cache file (magic, payload SHA-256, payload) whose V8 header carries another flag hash, as code
// made under other flags does, with its checksum recomputed so that only V8's header is wrong.
function withOtherFlagHash(file) {
  const { createHash } = process.getBuiltinModule('node:crypto');
  const payload = Buffer.from(file.subarray(40));
  payload[12] ^= 0xff; // bytes 12-15 of V8's header: the hash of V8's flags
  return Buffer.concat([file.subarray(0, 8), createHash('sha256').update(payload).digest(), payload]);
}
