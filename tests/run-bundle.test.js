// `spindle run` starts from its bundles (build/bundle, scripts/build-run-bundle.js) while every
// module they were made from, and each bundle, is unchanged, and from the modules otherwise
// (cli/run/run-bundle.js); the run bundle's V8 code is kept after a run (cli/run/script-cache.js).
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BOOT_BUNDLE, BUNDLE_DIR, BUNDLES, freshBundle, INPUTS_FILE, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from '../cli/common/bundles.js';
import { bootCodeName } from '../cli/common/bundle-record.js';
import { SCRIPT_WRAPPER } from '../cli/run/script-cache.js';
import { browserFlag, runBrowsers } from './lib/browsers.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');

describe('the run bundle is used only while it is current', () => {
  let fake;
  before(() => {
    fake = mkdtempSync(join(tmpdir(), 'spindle-bundle-'));
    mkdirSync(join(fake, BUNDLE_DIR), { recursive: true });
    writeFileSync(join(fake, 'a.js'), 'export {};\n');
    for (const bundle of BUNDLES) writeFileSync(join(fake, BUNDLE_DIR, bundle), '');
  });
  after(() => rmSync(fake, { recursive: true, force: true }));
  const outputs = () => BUNDLES.map((path) => {
    const st = statSync(join(fake, BUNDLE_DIR, path));
    return { path, mtimeMs: st.mtimeMs, size: st.size, sha256: '0'.repeat(64) };
  });
  const list = (inputs, outs = outputs()) => writeFileSync(join(fake, BUNDLE_DIR, INPUTS_FILE), JSON.stringify({ inputs, outputs: outs }));
  const at = (seconds) => utimesSync(join(fake, 'a.js'), seconds, seconds);

  it('fresh while every input has its mtime and size; stale after a change, a missing file or a missing list', () => {
    at(1000);
    list([{ path: 'a.js', mtimeMs: 1000000, size: 11 }]);
    assert.equal(freshBundle(fake), true);
    at(1001);
    assert.equal(freshBundle(fake), false);
    at(1000);
    writeFileSync(join(fake, 'a.js'), 'export {}; \n');
    at(1000);
    assert.equal(freshBundle(fake), false, 'size changed');
    list([{ path: 'gone.js', mtimeMs: 1, size: 1 }]);
    assert.equal(freshBundle(fake), false);
    list([]);
    assert.equal(freshBundle(fake), false);
    list([{ path: 'a.js', mtimeMs: 1000000, size: 12 }]);
    assert.equal(freshBundle(fake), true);
    writeFileSync(join(fake, BUNDLE_DIR, RUN_BUNDLE), 'changed');
    assert.equal(freshBundle(fake), false, 'a bundle changed since it was built');
    list([{ path: 'a.js', mtimeMs: 1000000, size: 12 }], outputs().slice(1));
    assert.equal(freshBundle(fake), false, 'no record of the run bundle');
    rmSync(join(fake, BUNDLE_DIR, INPUTS_FILE));
    assert.equal(freshBundle(fake), false);
  });

  it('a run says where its JavaScript came from: the bundle once built, the modules with SPINDLE_BUNDLE=0', async () => {
    const built = await exec(process.execPath, [join(root, 'scripts', 'build-run-bundle.js')]);
    assert.equal(built.code, 0, built.stderr);
    const out = mkdtempSync(join(tmpdir(), 'spindle-bundle-run-'));
    try {
      const wasm = join(out, 'hello_thread.wasm');
      const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', 'hello_thread.c'), '-o', wasm]);
      assert.equal(cc.code, 0, cc.stderr);
      const { SPINDLE_BUNDLE: _, ...env } = process.env;
      // (a run with --browser among its words starts from the modules, even as a program's argument)
      for (const [more, from, args = []] of [[{}, /JavaScript: the bundle/], [{ SPINDLE_BUNDLE: '0' }, /JavaScript: the modules/],
        [{}, /JavaScript: the modules/, ['--browser']]]) {
        const r = await exec(spindle, ['run', wasm, ...args], { env: { ...env, SPINDLE_DEBUG: '1', ...more } });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'hello, world (a thread wrote a file)\n');
        assert.match(r.stderr, from);
      }
      // a module changed after the bundles were built runs as it is now, from the modules: one the
      // run bundle holds, and bin/spindle's first module itself (whose bundle then still loads the
      // run bundle, which finds the change)
      const tree = join(out, 'tree');
      for (const part of ['bin', 'cli', 'host', 'scripts', 'package.json']) cpSync(join(root, part), join(tree, part), { recursive: true });
      for (const linked of ['.toolchain', 'node_modules']) symlinkSync(join(root, linked), join(tree, linked));
      const builtThere = await exec(process.execPath, [join(tree, 'scripts', 'build-run-bundle.js')]);
      assert.equal(builtThere.code, 0, builtThere.stderr);
      const runIn = () => exec(join(tree, 'bin', 'spindle'), ['run', wasm], { env: { ...env, SPINDLE_DEBUG: '1' } });
      let r = await runIn();
      assert.match(r.stderr, /JavaScript: the bundle/, 'the copy\'s own bundles');
      for (const edited of ['cli/run/run-options.js', 'cli/boot.js']) {
        appendFileSync(join(tree, edited), '// edited\n');
        r = await runIn();
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'hello, world (a thread wrote a file)\n');
        assert.match(r.stderr, /JavaScript: the modules/, edited);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('a browser run\'s page and workers come from their bundles while they are current', { skip: runBrowsers.length === 0 }, () => {
  let out;
  let wasm;
  before(async () => {
    const built = await exec(process.execPath, [join(root, 'scripts', 'build-run-bundle.js')]);
    assert.equal(built.code, 0, built.stderr);
    out = mkdtempSync(join(tmpdir(), 'spindle-page-bundle-'));
    wasm = join(out, 'hello_thread.wasm');
    const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', 'hello_thread.c'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  // the host's files the page asked the CLI's server for (SPINDLE_DEBUG lists each request)
  const hostFiles = (stderr) => [...stderr.matchAll(/\[spindle\] GET (\/host\/\S+)/g)].map((m) => m[1]);
  for (const browser of runBrowsers) {
    it(browser, async () => {
      const { SPINDLE_BUNDLE: _, ...env } = process.env;
      const bundled = await exec(spindle, ['run', browserFlag(browser), wasm], { env: { ...env, SPINDLE_DEBUG: '1' } });
      assert.equal(bundled.code, 0, bundled.stderr);
      assert.equal(bundled.stdout, 'hello, world (a thread wrote a file)\n');
      // the page's one file, then the thread worker's bundle for each worker (WebKit fetched it
      // once for two), and no module of the host
      const files = hostFiles(bundled.stderr);
      assert.equal(files[0], '/host/browser/run-page.js');
      assert.ok(files.length >= 2, files.join(' '));
      assert.deepEqual(new Set(files.slice(1)), new Set(['/host/program/thread-worker.js']));
      const modules = await exec(spindle, ['run', browserFlag(browser), wasm], { env: { ...env, SPINDLE_DEBUG: '1', SPINDLE_BUNDLE: '0' } });
      assert.equal(modules.code, 0, modules.stderr);
      assert.equal(modules.stdout, bundled.stdout);
      assert.ok(hostFiles(modules.stderr).length > 20, 'the modules, each a request of its own');
    });
  }
});

describe('Node\'s bundles are minified, and a stack through them names the modules', () => {
  const built = () => exec(process.execPath, [join(root, 'scripts', 'build-run-bundle.js')]);

  it('each has its source map beside it, naming files of the tree', async () => {
    assert.equal((await built()).code, 0);
    for (const bundle of [RUN_BUNDLE, THREAD_WORKER_BUNDLE, BOOT_BUNDLE]) {
      const map = JSON.parse(readFileSync(join(root, BUNDLE_DIR, `${bundle}.map`), 'utf8'));
      assert.ok(map.sources.length > 5, bundle);
      for (const source of map.sources) assert.ok(existsSync(join(root, BUNDLE_DIR, source)), `${bundle}: ${source}`);
      // (minified: well under the modules' own size, comments and all)
      const sources = map.sources.reduce((n, source) => n + statSync(join(root, BUNDLE_DIR, source)).size, 0);
      assert.ok(statSync(join(root, BUNDLE_DIR, bundle)).size < sources / 2, `${bundle} is minified`);
    }
  });

  it('an error thrown in the run bundle: its frames name the module, line and column', async () => {
    assert.equal((await built()).code, 0);
    const bundle = join(root, BUNDLE_DIR, RUN_BUNDLE);
    // (the bundle run as bin/spindle's boot runs it, its entry given what it cannot take)
    const code = `import { readableStack } from ${JSON.stringify(join(root, 'cli', 'common', 'readable-stack.js'))};
      const vm = process.getBuiltinModule('node:vm');
      const path = ${JSON.stringify(bundle)};
      const script = new vm.Script(process.getBuiltinModule('node:fs').readFileSync(path, 'utf8'), { filename: path });
      const module = { exports: {} };
      script.runInThisContext()(module.exports, process.getBuiltinModule, module, 'file://' + path);
      try { module.exports.launchRun(null, null); } catch (err) {
        const asUrl = err.stack.replaceAll(path, 'file://' + path);
        process.stdout.write(JSON.stringify({ raw: err.stack, mapped: readableStack(err.stack), fromUrl: readableStack(asUrl),
          plain: readableStack('Error: x\\n    at f (/elsewhere/a.js:1:2)'), notString: readableStack(undefined) }));
      }`;
    const r = await exec(process.execPath, ['--input-type=module', '-e', code]);
    assert.equal(r.code, 0, r.stderr);
    const { raw, mapped, fromUrl, plain, notString } = JSON.parse(r.stdout);
    assert.match(raw, /build\/bundle\/run\.cjs:\d+:\d+/);
    const entry = new RegExp(`${join(root, 'cli', 'run', 'run-entry.js').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+`);
    assert.match(mapped, entry);
    assert.doesNotMatch(mapped, /run\.cjs:/);
    assert.match(fromUrl, entry);
    assert.equal(plain, 'Error: x\n    at f (/elsewhere/a.js:1:2)');
    assert.equal(notString, undefined);
  });

  it('bin/spindle\'s boot runs from the V8 code the build kept for this Node; damaged or missing, it compiles', async () => {
    const out = mkdtempSync(join(tmpdir(), 'spindle-boot-code-'));
    try {
      const tree = join(out, 'tree');
      for (const part of ['bin', 'cli', 'host', 'scripts', 'package.json']) cpSync(join(root, part), join(tree, part), { recursive: true });
      for (const linked of ['.toolchain', 'node_modules']) symlinkSync(join(root, linked), join(tree, linked));
      const builtThere = await exec(process.execPath, [join(tree, 'scripts', 'build-run-bundle.js'), '--force']);
      assert.equal(builtThere.code, 0, builtThere.stderr);
      const code = join(tree, BUNDLE_DIR, bootCodeName(statSync(join(tree, BUNDLE_DIR, BOOT_BUNDLE))));
      assert.ok(existsSync(code), 'kept for the Node that built it');
      const wasm = join(out, 'hello.wasm');
      const cc = await exec(spindle, ['cc', join(root, 'bench', 'startup', 'hello.c'), '-o', wasm]);
      assert.equal(cc.code, 0, cc.stderr);
      const { SPINDLE_BUNDLE: _, ...env } = process.env;
      const runThere = async (boot) => {
        const r = await exec(join(tree, 'bin', 'spindle'), ['run', wasm], { env: { ...env, SPINDLE_DEBUG: '1' } });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'hello, world\n');
        assert.match(r.stderr, new RegExp(`JavaScript: the bundle \\(.*the boot's: ${boot}\\)`));
      };
      await runThere('hit');
      // (V8 checks what it reads before it uses any of it)
      writeFileSync(code, Buffer.from(Array.from({ length: statSync(code).size }, (_, i) => (i * 7919) & 0xff)));
      await runThere('rejected');
      rmSync(code);
      await runThere('none');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('SPINDLE_DEBUG\'s stack of a run that failed names the modules', async () => {
    assert.equal((await built()).code, 0);
    const { SPINDLE_BUNDLE: _, ...env } = process.env;
    const r = await exec(spindle, ['run', join(tmpdir(), 'spindle-no-such-module.wasm')], { env: { ...env, SPINDLE_DEBUG: '1' } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /JavaScript: the bundle|ENOENT/);
    assert.match(r.stderr, /cli\/run\/run\.js:\d+:\d+/);
    assert.doesNotMatch(r.stderr, /build\/bundle\/run\.cjs:/);
  });
});

describe('the run bundle\'s V8 code is kept after a run', () => {
  let dir;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'spindle-script-cache-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // (each load in a Node of its own: V8 would take a script it compiled before from its memory)
  const load = async (script, sha256, cache) => {
    const code = `import { loadCachedScript } from ${JSON.stringify(join(root, 'cli', 'run', 'script-cache.js'))};
      const r = loadCachedScript(${JSON.stringify(script)}, ${JSON.stringify(sha256)}, ${JSON.stringify(cache)});
      r.keep();
      process.stdout.write(JSON.stringify({ cache: r.cache, answer: r.exports.answer(), url: r.exports.url }));`;
    const r = await exec(process.execPath, ['--input-type=module', '-e', code]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  it('a miss keeps the code, the next load takes it, a damaged file is a miss and is replaced', async () => {
    const script = join(dir, 'script.cjs');
    writeFileSync(script, `${SCRIPT_WRAPPER.before}exports.answer = () => 6 * 7;\nexports.url = __bundleUrl;${SCRIPT_WRAPPER.after}`);
    const cache = join(dir, 'cache');
    mkdirSync(cache, { mode: 0o700 });
    assert.deepEqual(await load(script, 'a'.repeat(64), cache), { cache: 'miss', answer: 42, url: `file://${script}` });
    const [file] = readdirSync(cache);
    // (named by the bundle, Node and its options: this test's Nodes run with -e)
    assert.match(file, new RegExp(`^a{32}-${process.version}-${process.arch}-[0-9a-f]{8}\\.code$`));
    assert.equal(statSync(join(cache, file)).mode & 0o777, 0o600);
    assert.equal((await load(script, 'a'.repeat(64), cache)).cache, 'hit');
    // a release V8 checks no checksum of its code: a damaged byte of the same length would run
    // as code, so the file's own SHA-256 turns it into a miss
    const kept = readFileSync(join(cache, file));
    kept[kept.length - 100] ^= 0xff;
    writeFileSync(join(cache, file), kept);
    assert.deepEqual(await load(script, 'a'.repeat(64), cache), { cache: 'miss', answer: 42, url: `file://${script}` });
    assert.equal((await load(script, 'a'.repeat(64), cache)).cache, 'hit', 'the damaged file was replaced');
    writeFileSync(join(cache, file), 'short');
    assert.equal((await load(script, 'a'.repeat(64), cache)).cache, 'miss');
    // (another bundle, even of the same length, has a file of its own)
    assert.equal((await load(script, 'b'.repeat(64), cache)).cache, 'miss');
    assert.equal((await load(script, 'a'.repeat(64), null)).cache, 'off');
    assert.equal(readdirSync(cache).length, 2);
  });

  it('spindle run: a miss, then a hit; none with --code-cache=off', async () => {
    const wasm = join(dir, 'hello.wasm');
    const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', 'hello.c'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    const { SPINDLE_BUNDLE: _, ...env } = process.env;
    const runEnv = { ...env, SPINDLE_DEBUG: '1', SPINDLE_CODE_CACHE_DIR: join(dir, 'code') };
    // (a Node started with options of its own keeps a file of its own: V8 refuses code made under other flags)
    for (const [args, kept, node = []] of [[[], 'miss'], [[], 'hit'], [['--code-cache=off'], 'off'], [[], 'miss', ['--stack-size=900']],
      [[], 'hit', ['--stack-size=900']], [[], 'hit']]) {
      const r = await exec(process.execPath, [...node, spindle, 'run', ...args, wasm], { env: runEnv });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'hello, world\n');
      assert.match(r.stderr, new RegExp(`JavaScript: the bundle \\(build/bundle; its V8 code: ${kept}; the boot's: (hit|rejected)\\)`));
    }
  });

  it('spindle run: thread workers keep their bundle\'s code too, written whole, a damaged file made again', async () => {
    const wasm = join(dir, 'hello_thread.wasm');
    const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', 'hello_thread.c'), '-o', wasm]);
    assert.equal(cc.code, 0, cc.stderr);
    const { SPINDLE_BUNDLE: _, ...env } = process.env;
    const code = join(dir, 'thread-code');
    const runEnv = { ...env, SPINDLE_DEBUG: '1', SPINDLE_CODE_CACHE_DIR: code };
    // (the replay of the command line's early start is there too: the next test's)
    const kept = () => readdirSync(join(code, 'js', 'run-bundle')).filter((f) => !f.endsWith('.early')).sort();
    const run = async (workers) => {
      const r = await exec(process.execPath, [spindle, 'run', wasm], { env: runEnv });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'hello, world (a thread wrote a file)\n');
      assert.match(r.stderr, new RegExp(`thread workers' code: ${workers}\n`));
    };
    await run('miss');
    // the run bundle's code and the thread worker's, each whole (no temporary file left)
    const files = kept();
    assert.equal(files.length, 2, files.join(' '));
    assert.ok(files.every((f) => f.endsWith('.code')), files.join(' '));
    await run('hit');
    assert.deepEqual(kept(), files, 'a hit writes nothing');
    // (a byte changed in each: its SHA-256 makes both misses, and the runs write them again)
    for (const f of files) {
      const bytes = readFileSync(join(code, 'js', 'run-bundle', f));
      bytes[bytes.length - 50] ^= 0xff;
      writeFileSync(join(code, 'js', 'run-bundle', f), bytes);
    }
    await run('miss');
    await run('hit');
  });

  // cli/run/early-replay.js: bin/spindle's first module starts what the command line's last run started early
  it('spindle run: the workers a command line started early last time start before the run bundle loads', async () => {
    const wasm = join(dir, 'hello_thread.wasm');
    const hello = join(dir, 'hello.wasm');
    // (the tests before built them, unless only this one runs)
    for (const [file, source] of [[wasm, 'hello_thread.c'], [hello, 'hello.c']]) {
      if (existsSync(file)) continue;
      const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', source), '-o', file]);
      assert.equal(cc.code, 0, cc.stderr);
    }
    const { SPINDLE_BUNDLE: _, ...env } = process.env;
    const code = join(dir, 'replay-code');
    const runEnv = { ...env, SPINDLE_DEBUG: '1', SPINDLE_CODE_CACHE_DIR: code };
    const replays = () => readdirSync(join(code, 'js', 'run-bundle')).filter((f) => f.endsWith('.early'));
    const run = async (file, started, before) => {
      const r = await exec(process.execPath, [spindle, 'run', file], { env: runEnv });
      assert.equal(r.code, 0, r.stderr);
      const line = /threads' workers started early: (\d+) \(([^\n]*)\)/.exec(r.stderr);
      assert.equal(Number(line?.[1]), started, r.stderr);
      assert.equal(/; (\d+) before the run bundle$/.exec(line[2])?.[1] ?? '0', String(before), line[0]);
      return r;
    };
    const cores = availableParallelism();
    // a first run starts two (one per core), nothing before the bundle; the next one starts
    // them first and keeps the one its thread used
    await run(wasm, Math.min(2, cores), 0);
    assert.equal(replays().length, 1);
    await run(wasm, 1, 1);
    await run(wasm, 1, 1);
    const [file] = replays();
    assert.equal(readFileSync(join(code, 'js', 'run-bundle', file), 'utf8'), '1 0');
    // another command line has a file of its own; one whose runs start nothing early keeps none;
    // and a new file's write removes those not written for 30 days
    const old = join(code, 'js', 'run-bundle', '0123abcd.early');
    writeFileSync(old, '1 0');
    utimesSync(old, new Date(Date.now() - 31 * 86400e3), new Date(Date.now() - 31 * 86400e3));
    await run(hello, Math.min(2, cores), 0);
    assert.equal(replays().length, 2, replays().join(' '));
    assert.ok(!replays().includes('0123abcd.early'));
    // (the two it started before the bundle ended unused; where its short run compiled lazily
    // instead of loading TurboFan code, its file keeps only that module's path)
    const second = await run(hello, 0, 0);
    const ofHello = join(code, 'js', 'run-bundle', replays().find((f) => f !== file) ?? 'none');
    if (/code cache: not read: /.test(second.stderr)) assert.equal(readFileSync(ofHello, 'utf8'), `0 0\n${hello}`);
    else assert.deepEqual(replays(), [file]);
    // a file that is not a replay starts nothing, and the run writes its own
    writeFileSync(join(code, 'js', 'run-bundle', file), '99999 7');
    await run(wasm, 1, 0);
    assert.equal(readFileSync(join(code, 'js', 'run-bundle', file), 'utf8'), '1 0');
  });
  // cli/run/early-replay.js: a short program's lazy compile starts before the run bundle loads
  it('spindle run: a module its last run compiled lazily is compiled before the run bundle loads, the same bytes only', async () => {
    const hello = join(dir, 'lazy-hello.wasm');
    const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', 'hello.c'), '-o', hello]);
    assert.equal(cc.code, 0, cc.stderr);
    const { SPINDLE_BUNDLE: _, ...env } = process.env;
    const code = join(dir, 'lazy-code');
    const runEnv = { ...env, SPINDLE_DEBUG: '1', SPINDLE_CODE_CACHE_DIR: code };
    const run = async (file = hello) => {
      const r = await exec(process.execPath, [spindle, 'run', file], { env: runEnv });
      return { ...r, lazy: /code cache: not read: /.test(r.stderr), early: /; begun before the run bundle loaded\)/.test(r.stderr) };
    };
    // the compile hint chooses a lazy compile once the module's runs are known short
    let r;
    for (let i = 0; i < 6 && !r?.lazy; i++) r = await run();
    assert.ok(r.lazy, `no lazy compile chosen: ${r.stderr}`);
    assert.equal(r.early, false, 'the run that first chose it had nothing compiled early');
    r = await run();
    assert.deepEqual([r.code, r.stdout, r.lazy, r.early], [0, 'hello, world\n', true, true], r.stderr);
    // a replay that names another module (as where the command line's module is another file
    // now): the run compiles its own
    const [replay] = readdirSync(join(code, 'js', 'run-bundle')).filter((f) => f.endsWith('.early'));
    const other = join(dir, 'lazy-other.wasm');
    writeFileSync(other, readFileSync(hello));
    writeFileSync(join(code, 'js', 'run-bundle', replay), `0 0\n${other}`);
    r = await run();
    assert.deepEqual([r.code, r.stdout, r.early], [0, 'hello, world\n', false], r.stderr);
    // a replay that names a module that does not compile: the run's own compile says what is wrong
    writeFileSync(join(code, 'js', 'run-bundle', replay), `0 0\n${other}`);
    writeFileSync(other, Buffer.from('not wasm'));
    r = await run();
    assert.deepEqual([r.code, r.stdout, r.early], [0, 'hello, world\n', false], r.stderr);
    const broken = await exec(process.execPath, [spindle, 'run', other], { env: runEnv });
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /^spindle: /);
    // a replay whose path is not absolute is no replay
    writeFileSync(join(code, 'js', 'run-bundle', replay), '0 0\nlazy-hello.wasm');
    r = await run();
    assert.deepEqual([r.code, r.early], [0, false], r.stderr);
  });
});
