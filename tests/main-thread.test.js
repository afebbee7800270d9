// `spindle run` in Node runs the C main on Node's main thread (host/program/program.js, mainThread
// 'here'; docs/HOST.md, "Start-up"). While main is inside wasm that thread reads no message,
// so a thread that ends the program ends the process itself: these runs must end as they do
// with main in a worker (SPINDLE_MAIN_THREAD=worker): same status, stdout and stderr, on every
// Node version the suite runs on (scripts/test.sh runs it on 22 and 24 too).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { removeCodeCache } from './lib/code-cache-dir.js';
import { CLI_NODE_FLAGS } from '../cli/common/v8-start.js';
import { threadHint } from '../cli/run/thread-hint.js';
import { codeCacheAddon } from '../host/code-cache/addon.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'main-thread');

// [program, status, stdout, what stderr must hold]
const cases = [
  ['tests/programs/exit_from_thread.c', 7, 'main: waiting for worker\nworker: calling exit(7)\n', /^$/],
  ['tests/programs/exit_from_thread_busy_main.c', 9, 'main: starting worker\nworker: main is busy, calling exit(9)\n', /^$/],
  ['tests/run/thread_in_thread_exit.c', 5, 'main: waiting\ngrandchild: calling exit(5)\n', /^$/],
  ['tests/programs/trap_in_thread.c', 134, 'main: waiting for worker\nworker: about to trap\n', /^spindle: thread 1: trap: /],
  ['tests/programs/abort_main.c', 134, 'main: calling abort\n', /^spindle: thread main: trap: unreachable/],
  ['tests/programs/stack_overflow_main.c', 134, 'recursing\n',
    /^spindle: thread main: stack overflow \(limit 1024 KiB, raise it with --stack-size\)\n/],
  ['bench/startup/hello_thread.c', 0, 'hello, world (a thread wrote a file)\n', /^$/],
];
const mountProgram = 'tests/run/thread_writes_dir.c'; // built with the cases

// A preload after which every thread worker exits at boot, before any of its code runs.
const vanishAllWorkers = 'import{isMainThread}from"node:worker_threads";if(!isMainThread)process.exit(0)';

// The run's own lines and SPINDLE_DEBUG's, apart.
function runOf(r) {
  const debug = r.stderr.split('\n').filter((l) => l.startsWith('[spindle]')).join('\n');
  const stderr = r.stderr.split('\n').filter((l) => !l.startsWith('[spindle]')).join('\n');
  return { code: r.code, stdout: r.stdout, stderr, debug };
}

describe(`the C main on Node's main thread (Node ${process.versions.node})`, () => {
  const wasm = {};
  before(async () => {
    mkdirSync(out, { recursive: true });
    await Promise.all([...cases.map(([src]) => src), mountProgram].map(async (src) => {
      const file = join(out, src.replace(/^.*\//, '').replace(/\.c$/, '.wasm'));
      const r = await exec(spindle, ['cc', '-O2', join(root, src), '-o', file]);
      assert.equal(r.code, 0, r.stderr);
      wasm[src] = file;
    }));
  });

  it('a closed stdout ends a main that computes on without writing with 141, here and in a worker alike', async () => {
    const file = join(out, 'closed_stdout_then_compute.wasm');
    const built = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'run', 'closed_stdout_then_compute.c'), '-o', file]);
    assert.equal(built.code, 0, built.stderr);
    for (const where of ['here', 'worker']) {
      const env = { ...process.env, SPINDLE_MAIN_THREAD: where };
      // the reader takes 20 bytes and goes; the run's own status is PIPESTATUS[0] (bash's ${}, not a template)
      // eslint-disable-next-line no-template-curly-in-string
      const r = await exec('bash', ['-c', '"$@" | head -c 20 > /dev/null; echo "${PIPESTATUS[0]}"', 'run', spindle, 'run', file],
        { env, timeoutMs: 30000 });
      assert.equal(r.stdout, '141\n', `${where}: ${r.stderr}`);
    }
  });

  // A host-directory mount is called from each thread itself, so it needs no event loop here.
  it('--mount keeps main here: a thread writes into the host directory, main reads it back, an exit from a thread ends it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spindle-main-mount-'));
    try {
      const env = { ...process.env, SPINDLE_DEBUG: '1' };
      const r = runOf(await exec(spindle, ['run', `--mount=/data=${dir}`, wasm[mountProgram], '/data'], { env, timeoutMs: 30000 }));
      assert.match(r.debug, /C main: on Node's main thread/);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'main read: written by a thread\n');
      assert.equal(readFileSync(join(dir, 'from-thread.txt'), 'utf8'), 'written by a thread\n');
      const exited = runOf(await exec(spindle, ['run', `--mount=/data=${dir}`, wasm['tests/programs/exit_from_thread.c']], { env, timeoutMs: 30000 }));
      assert.match(exited.debug, /C main: on Node's main thread/);
      assert.equal(exited.code, 7, exited.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a main thread whose real stack (ulimit -s) is below the worker-sized V8 limit runs main in a worker', async () => {
    const src = 'tests/programs/stack_overflow_main.c';
    const r = runOf(await exec('bash', ['-c', 'ulimit -s 2048 && exec "$@"', 'run', spindle, 'run', wasm[src]],
      { env: { ...process.env, SPINDLE_DEBUG: '1' }, timeoutMs: 30000 }));
    assert.match(r.debug, /C main: in a worker/);
    assert.equal(r.code, 134, r.stderr);
    assert.match(r.stderr, /^spindle: thread main: stack overflow/);
  });

  // A worker that dies while it boots, before its code runs: its parent's event loop, which would
  // hear of it, does not run while that thread is in wasm (host/threads/lifelines.js).
  // (--code-cache=off: no thread hint either, so the first thread's worker starts on demand)
  const bootDeath = (preload, file, runArgs = []) => exec(process.execPath,
    [...CLI_NODE_FLAGS, '--import', `data:text/javascript,${preload}`, spindle, 'run', '--code-cache=off', ...runArgs, file],
    { env: { ...process.env, SPINDLE_DEBUG: '1' }, timeoutMs: 20000 });
  const vanished = /^spindle: worker failed: worker exited before the program ended\n$/;
  // preloads: every thread worker exits at boot; or all but the first to boot (a scratch dir counts)
  async function vanishAfterFirst(runWith) {
    const dir = mkdtempSync(join(tmpdir(), 'spindle-vanish-'));
    try {
      return await runWith(`import{isMainThread}from"node:worker_threads";import{mkdirSync}from"node:fs";` +
        `if(!isMainThread){try{mkdirSync("${dir}/first")}catch{process.exit(0)}}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('a pthread\'s worker that dies while it boots ends the run with 134, not a hang in pthread_join', async () => {
    const r = runOf(await bootDeath(vanishAllWorkers, wasm['bench/startup/hello_thread.c']));
    assert.match(r.debug, /C main: on Node's main thread/);
    assert.equal(r.code, 134, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, vanished);
  });

  it('a worker started by a thread\'s worker that dies while it boots ends the run with 134', async () => {
    // the second thread worker to boot (the grandchild's, started by the child's worker) exits
    const r = runOf(await vanishAfterFirst((second) => bootDeath(second, wasm['tests/run/thread_in_thread_exit.c'])));
    assert.equal(r.code, 134, r.stderr);
    assert.equal(r.stdout, 'main: waiting\n');
    assert.match(r.stderr, vanished);
  });

  // A later run's early worker was ready before main started, so the run's watcher holds no lifeline
  // of it: the worker its thread starts gets its lifeline from a watcher of that worker's own.
  it('a worker that a ready early worker\'s thread starts, dying while it boots, ends the run with 134', {
    skip: !codeCacheAddon().addon && 'no code-cache addon (no hint)',
  }, async () => {
    const cache = mkdtempSync(join(tmpdir(), 'spindle-main-grandchild-'));
    try {
      const file = wasm['tests/run/thread_in_thread_exit.c'];
      // one early worker: the child's thread takes it, the grandchild's needs a new one
      threadHint(file, cache, availableParallelism()).record(1);
      const r = runOf(await vanishAfterFirst((second) => exec(process.execPath,
        [...CLI_NODE_FLAGS, '--import', `data:text/javascript,${second}`, spindle, 'run', `--code-cache=${cache}`, file],
        { env: { ...process.env, SPINDLE_DEBUG: '1' }, timeoutMs: 20000 })));
      assert.match(r.debug, /threads' workers started early: 1 \(its last runs here used 1\)/);
      assert.equal(r.code, 134, r.stderr);
      assert.equal(r.stdout, 'main: waiting\n');
      assert.match(r.stderr, vanished);
    } finally {
      await removeCodeCache(cache);
    }
  });

  // --fs=js (docs/JSFS.md) runs the C main here too, with a pool booted before main; the watcher
  // of the workers started later reports to the fate its waits check. The preload also says on
  // stderr when the watcher starts (Node's main thread's Worker, wrapped before Spindle loads).
  describe('--fs=js', () => {
    const jsWasm = (src) => join(out, src.replace(/^.*\//, '').replace(/\.c$/, '.fs-js.wasm'));
    before(async () => {
      await Promise.all(['bench/startup/hello_thread.c', 'tests/run/thread_in_thread_exit.c'].map(async (src) => {
        const r = await exec(spindle, ['cc', '--fs=js', '-O2', join(root, src), '-o', jsWasm(src)]);
        assert.equal(r.code, 0, r.stderr);
      }));
    });
    const watcherProbe = 'import wt from"node:worker_threads";import{syncBuiltinESMExports}from"node:module";' +
      'if(wt.isMainThread){const W=wt.Worker;wt.Worker=class extends W{constructor(u,o){super(u,o);' +
      'if(String(u).includes("lifeline-watcher"))process.stderr.write("[probe] watcher started\\n")}};syncBuiltinESMExports()}';
    const exited = /^spindle: worker failed: worker exited with code 0 before the program ended\n$/;

    it('a worker started from inside main\'s wait (past the pool) that dies while it boots ends the run with 134', async () => {
      // --pool=1: the child's thread takes the pool's worker; the grandchild's the host thread starts
      const r = await vanishAfterFirst((second) => bootDeath(watcherProbe + ';' + second,
        jsWasm('tests/run/thread_in_thread_exit.c'), ['--pool=1']));
      assert.match(r.stderr, /C main: on Node's main thread/);
      assert.match(r.stderr, /\[probe\] watcher started/);
      const run = runOf({ ...r, stderr: r.stderr.replace(/^\[probe\].*\n/m, '') });
      assert.equal(run.code, 134, run.stderr);
      assert.equal(run.stdout, 'main: waiting\n');
      assert.match(run.stderr, exited);
    });

    it('a pool worker that dies while it boots ends the run with 134 before main starts', async () => {
      const r = runOf(await bootDeath(vanishAllWorkers, jsWasm('bench/startup/hello_thread.c')));
      assert.equal(r.code, 134, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, exited);
    });

    it('a run whose threads fit the pool starts no watcher', async () => {
      const r = await bootDeath(watcherProbe, jsWasm('bench/startup/hello_thread.c'));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'hello, world (a thread wrote a file)\n');
      assert.doesNotMatch(r.stderr, /\[probe\]/);
    });
  });

  for (const [src, code, stdout, stderr] of cases) {
    it(`${src}: status ${code}, here and in a worker alike`, async () => {
      const here = runOf(await exec(spindle, ['run', wasm[src]], { env: { ...process.env, SPINDLE_DEBUG: '1' }, timeoutMs: 30000 }));
      const worker = runOf(await exec(spindle, ['run', wasm[src]],
        { env: { ...process.env, SPINDLE_DEBUG: '1', SPINDLE_MAIN_THREAD: 'worker' }, timeoutMs: 30000 }));
      assert.match(here.debug, /C main: on Node's main thread/);
      assert.match(worker.debug, /C main: in a worker/);
      for (const r of [here, worker]) {
        assert.equal(r.code, code, r.stderr);
        assert.equal(r.stdout, stdout);
        assert.match(r.stderr, stderr);
      }
      // a trap's report (its message and wasm frames) reads the same from either path; V8 names a
      // module by a hash of its bytes, and a thread's worker in a run without cached code has a
      // module of its own (host/program/thread-module.js), so that name is left out
      const frames = (text) => text.replace(/wasm:\/\/wasm\/[0-9a-f]+:/g, 'wasm://wasm/MODULE:');
      assert.equal(frames(here.stderr), frames(worker.stderr));
    });
  }
});

// `spindle run` starts as many threads' workers before it loads the host as the module's last
// run used, one on its first run (cli/run/thread-hint.js; docs/HOST.md, "Start-up").
describe('threads\' workers started early', () => {
  let file;
  let cache;
  before(async () => {
    mkdirSync(out, { recursive: true });
    file = join(out, 'threads_if_asked.wasm');
    const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'run', 'threads_if_asked.c'), '-o', file]);
    assert.equal(r.code, 0, r.stderr);
  });
  // (each test has a cache of its own: the hint is kept there)
  beforeEach(() => { cache = mkdtempSync(join(tmpdir(), 'spindle-thread-hint-')); });
  afterEach(() => removeCodeCache(cache));
  const run = async (args, preload = null) => runOf(await exec(process.execPath,
    [...CLI_NODE_FLAGS, ...(preload ? ['--import', `data:text/javascript,${preload}`] : []), spindle, 'run', `--code-cache=${cache}`, file, ...args],
    { env: { ...process.env, SPINDLE_DEBUG: '1' }, timeoutMs: 20000 }));
  const started = (r) => Number(/threads' workers started early: (\d+)/.exec(r.debug)?.[1]);
  const cores = availableParallelism();

  it('a first run starts two (one per core at most), the next the most its last runs used, and the threads run on them', async () => {
    const first = await run(['2']);
    assert.equal(first.stdout, 'threads 2, total 3\n', first.stderr);
    assert.equal(started(first), cores > 1 ? 2 : 0);
    assert.match(first.debug, /the module's first run here/);
    const second = await run(['3']);
    assert.equal(started(second), Math.min(2, cores));
    assert.match(second.debug, /its last runs here used 2\)/);
    assert.equal(second.stdout, 'threads 3, total 6\n', second.stderr);
    assert.equal(second.code, 0);
    // 1 thread after runs with 3 and 2: the most of them
    const third = await run(['1']);
    assert.equal(started(third), Math.min(3, cores));
    assert.match(third.debug, /its last runs here used 3, 2\)/);
    assert.equal(third.stdout, 'threads 1, total 1\n', third.stderr);
    for (let i = 0; i < 3; i++) assert.equal((await run(['1'])).code, 0);
    // only the last four runs count: 1, 1, 1, 1
    assert.equal(started(await run([])), 1);
  });

  it('a run that starts no thread ends as it should with the early worker unused, and the next starts none', async () => {
    const unused = await run([]);
    assert.equal(started(unused), cores > 1 ? 2 : 0);
    assert.equal(unused.stdout, 'threads 0, total 0\n', unused.stderr);
    assert.equal(unused.code, 0);
    const next = await run([]);
    assert.equal(started(next), 0);
    assert.match(next.debug, /its last runs here used 0\)/);
    assert.equal(next.code, 0);
  });

  it('an early worker that dies while it boots ends the run with 134, not a hang', async () => {
    assert.equal((await run(['1'])).code, 0);
    const r = await run(['1'], vanishAllWorkers);
    assert.equal(started(r), Math.min(1, cores));
    assert.equal(r.code, 134, r.stderr);
    assert.match(r.stderr, /^spindle: worker failed: worker exited (with code 0 )?before the program ended\n$/);
  });

  // The watcher worker of host/threads/lifelines.js boots in ~25 ms of a core, which it took from
  // the program's threads: a worker that reported ready watches itself (the addon's exitIfVanished).
  const watcherProbe = 'import wt from"node:worker_threads";import{syncBuiltinESMExports}from"node:module";' +
    'if(wt.isMainThread){const W=wt.Worker;wt.Worker=class extends W{constructor(u,o){super(u,o);' +
    'if(String(u).includes("lifeline-watcher"))process.stderr.write("[probe] watcher started\\n")}};syncBuiltinESMExports()}';
  const watcherStarted = (r) => /\[probe\] watcher started/.test(r.stderr);
  const withoutProbe = (r) => ({ ...r, stderr: r.stderr.replace(/^\[probe\].*\n/m, '') });

  it('a later run whose threads\' workers are ready before main starts no watcher', async () => {
    assert.equal((await run(['2'])).code, 0);
    const r = await run(['2'], watcherProbe);
    assert.equal(started(r), Math.min(2, cores));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'threads 2, total 3\n');
    assert.equal(watcherStarted(r), false, 'no watcher');
  });

  it('a thread\'s worker that goes away after it was ready ends the run with 134, not a hang, with no watcher', async () => {
    assert.equal((await run(['1'])).code, 0);
    // each thread worker exits as soon as it has said 'ready', at its first look at its slot (not
    // at its first wait: a thread assigned to the slot before that look runs without one)
    const exitAfterReady = 'import{isMainThread,parentPort}from"node:worker_threads";if(!isMainThread){let ready=false;' +
      'const post=parentPort.postMessage.bind(parentPort);parentPort.postMessage=(m,t)=>{post(m,t);if(m?.type==="ready")ready=true};' +
      'const load=Atomics.load;Atomics.load=(...a)=>(ready?process.exit(0):load(...a));Atomics.wait=()=>process.exit(0)}';
    const r = await run(['1'], `${watcherProbe};${exitAfterReady}`);
    // (it ends the run before main starts, and so before the run's debug lines)
    assert.equal(watcherStarted(r), false, 'no watcher');
    const ran = withoutProbe(r);
    assert.equal(ran.code, 134, ran.stderr);
    assert.equal(ran.stderr, 'spindle: worker failed: worker exited before the program ended\n');
  });

  // A browser run's count comes from its page (cli/browser/browser-session.js): untrusted.
  it('keeps only whole counts of workers, at most 1024, whoever reports them', { skip: !codeCacheAddon().addon && 'no code-cache addon (no hint)' }, () => {
    const hintFile = () => readdirSync(cache).filter((n) => n.endsWith('.threads'));
    for (const bad of [-1, 2.5, '3', null, undefined, Number.NaN, Infinity]) threadHint(file, cache, 4).record(bad);
    assert.deepEqual(hintFile(), [], 'no count was kept');
    threadHint(file, cache, 4).record(1e9);
    assert.equal(readFileSync(join(cache, hintFile()[0]), 'latin1'), '1024');
    assert.deepEqual(threadHint(file, cache, 4).last, [1024]);
    assert.equal(threadHint(file, cache, 4).workers, 4, 'no more than the cores');
  });
});
