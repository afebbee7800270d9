// The coordinator: compiles a module once, makes its shared memory, pre-spawns the worker pool,
// starts the C main on a worker and waits for the program's end. It runs on the host's main
// thread (Node's, or the page's) and never runs wasm itself, so it never blocks.
import { BROKEN_PIPE_EXIT, createControl, FATE, HEADER, SLOT, slotIndex, slotsUsed } from '../threads/control.js';
import { customSection, importedMemory, importsFromSpindle, usesJsFs } from '../compile/module-info.js';
import { checkCompilationMode, compileModule } from '../compile/compilation.js';
import { compileFromResponse, isResponseSource } from '../compile/compile-streaming.js';
import { stdinBytesBuffer } from '../platform/stdin-bytes.js';
import { createFilesClient } from '../files/client.js';
import { PRELOAD_SECTION, preloadSection, preloadSteps } from '../files/preload.js';
import { prepareMounts } from '../mount/index.js';
import { isNode, loadPlatform } from '../platform/current.js';
import { loadThreadWorkers } from './thread-workers.js';
import { trapReport } from '../threads/trap-text.js';
import { instantiate, runMain } from './thread-setup.js';
import { useWallClockBase } from '../platform/wall-clock.js';
import { stampTicker } from './stamp-ticker.js';

/**
 * Compiles wasm bytes (or fetches a URL, or takes a fetch Response or a promise of one) into { module, memoryLimits, preload, compilation,
 * tiers, tiersReason, codeCache, keepTieredUp? }; options.compilation: 'auto' (default), 'eager' or 'lazy'
 * (host/compile/compilation.js); options.codeCache: true or a directory to keep compiled code in between
 * runs, in Node (host/code-cache/; off by default); options.lazyModule: a promise of the module
 * WebAssembly.compile made of the same bytes, taken where the compile is lazy (compileModule).
 */
export async function compile(source, options = {}) {
  checkCompilationMode(options.compilation);
  const fetched = typeof source === 'string' || source instanceof URL || isResponseSource(source);
  if (fetched && !isNode) {
    // a page streams the module, so that the browser may keep its compiled code for the next
    // visit (host/compile/compile-streaming.js; docs/HOST.md, "Cached code in pages")
    const { bytes, compiling, codeCache } = await compileFromResponse(source);
    const parts = programParts(bytes);
    return { module: await compiling, compilation: 'browser', tiers: 'browser', tiersReason: 'the browser\'s own flags', codeCache, ...parts };
  }
  let bytes = source;
  if (fetched) {
    const res = await (isResponseSource(source) ? source : fetch(source));
    if (!(res instanceof Response)) throw new Error('compile: expected wasm bytes, a URL, a Response or a promise of one');
    if (!res.ok) throw new Error(`fetching ${isResponseSource(source) ? res.url : source}: HTTP ${res.status}`);
    bytes = new Uint8Array(await res.arrayBuffer());
  }
  bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const parts = programParts(bytes);
  const { wire, ...compiled } = await compileModule(bytes, options.compilation, options.codeCache, options.lazyModule);
  // Liftoff code, tiered up as it runs: each pthread's worker compiles a module of its own
  // (host/program/thread-module.js)
  const liftoff = compiled.tiers === 'tiered' && compiled.codeCache !== 'hit';
  return { ...compiled, ...parts, threadModuleBytes: liftoff ? wire : null };
}

/** What the host reads from a module's bytes: its imported memory's limits and its preload section. */
function programParts(bytes) {
  const memoryLimits = importedMemory(bytes);
  if (!memoryLimits || !memoryLimits.shared) {
    throw new Error('the module must import a shared memory (build it with spindle cc)');
  }
  // spindle cc --preload-file's files: kept as a view of these bytes, so they are never copied
  // before they go into the program's memory (host/files/preload.js).
  return { memoryLimits, preload: customSection(bytes, PRELOAD_SECTION) };
}

function sharedCopy(bytes) {
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}

function ioConfig(options) {
  const io = {};
  if (options.stdin instanceof Uint8Array) io.stdinBytes = stdinBytesBuffer(options.stdin);
  else if (typeof options.stdin === 'number') io.stdinFd = options.stdin;
  if (typeof options.stdout === 'number') io.stdoutFd = options.stdout;
  if (typeof options.stderr === 'number') io.stderrFd = options.stderr;
  if (options.stdioUrl) io.stdioUrl = String(options.stdioUrl);
  if (options.stdioDescribed) io.stdioDescribed = true; // the stdioUrl server describes its fds
  io.stdinPosition = new SharedArrayBuffer(8); // read position of a stdin that is a file
  return io;
}

/**
 * Runs a compiled program to its end. Resolves with { exitCode, trap, workersUsed } where trap
 * is the message of a trap that ended it (exitCode 134) or undefined, and workersUsed how many
 * thread workers ran a thread (about the most threads it had at once: a hint for the next run).
 */
export async function runProgram(compiled, options = {}) {
  const program = await createProgram(compiled, { ...options, files: false });
  program.start();
  const result = await program.exited;
  program.dispose();
  return { ...result, workersUsed: program.workersUsed() };
}

/**
 * Prepares a program (memory, workers, the files API, preloaded files) without running main:
 * resolves with { files, start(), exited, dispose() } (host/index.d.ts, docs/FILES.md).
 */
export async function createProgram(compiled, options = {}) {
  const [platform, threadWorkers] = await Promise.all([loadPlatform(), loadThreadWorkers()]);
  const { module, memoryLimits } = compiled;
  const cpuCount = options.cpuCount ?? platform.cpuCount();
  // (a thread limit below the default pool also makes the pool smaller)
  const poolSize = options.poolSize ?? Math.min(Math.max(4, cpuCount), options.maxThreads ?? Infinity);
  const maxThreads = Math.max(options.maxThreads ?? 1024, poolSize);
  const memory = new WebAssembly.Memory({
    initial: memoryLimits.initial, maximum: memoryLimits.maximum, shared: true,
  });
  const control = createControl(maxThreads);
  const ticker = stampTicker(memory); // (asked for by threads' 'stamp-ticker' reports: host/platform/browser.js, node.js)
  const base = {
    module, memory, control, cpuCount, io: ioConfig(options),
    // (one copy for every worker: host/threads/thread-module.js)
    moduleBytes: compiled.threadModuleBytes ? sharedCopy(compiled.threadModuleBytes) : null,
    args: options.args ?? ['program.wasm'], env: options.env ?? {},
    // every thread's wall clock is this thread's (host/platform/wall-clock.js)
    clockBaseNs: platform.epochOffsetNs?.() ?? null,
  };
  useWallClockBase(base.clockBaseNs);
  // --fs=js (host/jsfs): files live in JavaScript on this thread; threads reach them by mailbox.
  // Its modules load only for a module that links it (a hello world's start-up: ~5 ms less).
  const jsfs = usesJsFs(module);
  const jsfsHost = jsfs ? await import('../jsfs/host-thread.js') : null;
  if (jsfs) base.jsfs = { channel: (await import('../jsfs/proxy.js')).createChannel(maxThreads + 1) };
  // The files API's service thread (host/files): started by a constructor when asked for.
  const files = createFilesClient({ module, memory, enabled: options.files ?? true });
  if (files.mailbox) base.files = { mailbox: files.mailbox };
  // Preloaded files (spindle cc --preload-file, options.preload): the C main's thread puts them
  // in before the program's code, with no service thread (host/files/preload-serve.js). Checked
  // here, so that a bad image fails before anything starts; only main's instance gets them.
  const preload = [preloadSection(compiled), options.preload].filter(Boolean);
  if (preload.length && !importsFromSpindle(module, 'files_preload_next')) {
    throw new Error(importsFromSpindle(module, 'files_wait')
      ? 'preloaded files need a module linked by this Spindle (link it again)'
      : 'preloaded files need a module built with spindle cc --fs=spindle or spindle cargo');
  }
  try {
    preloadSteps(preload);
  } catch (err) {
    throw new Error(`preloading files failed: ${err.message}`, { cause: err });
  }
  // Mounts (host/mount, docs/MOUNTS.md): host directories (Node) or OPFS (browsers) in the tree.
  const mounts = await prepareMounts(options.mounts, { memory, maxThreads, module, jsfs });
  if (mounts.list.length) base.mounts = mounts.list;
  const wasiFiles = mounts.preopens ? await import('../wasi/preopens.js') : null;
  if (wasiFiles) base.wasiFiles = { table: wasiFiles.createFdTable(mounts.list.length) };
  // The files service's worker is kept after exit, so files can be read until dispose().
  // slot -> { worker, ready }, as spawnWorker started them
  const spawnedForSlot = new Map();
  const filesWorker = () => spawnedForSlot.get(files.serviceSlot())?.worker;
  const writeStdio = options.onStdio ?? ((fd, bytes) => (fd === 2 ? console.error : console.log)(new TextDecoder().decode(bytes)));

  const workers = [];
  let settle;
  const ended = new Promise((resolve) => { settle = resolve; });
  let trap;
  let ending = false;
  let watcher = null; // main here: host/threads/lifelines.js watches the thread workers
  let selfWatching = false; // and they watch themselves once their code runs

  function end(failure) {
    if (ending) return;
    ending = true;
    if (failure) {
      trap = failure;
      Atomics.compareExchange(control, HEADER.FATE, FATE.RUNNING, FATE.TRAPPED);
      Atomics.compareExchange(control, HEADER.EXIT_CODE, 0, 134);
    }
    if (jsfs) Atomics.notify(new Int32Array(base.jsfs.channel), 0); // ends serveForever's wait
    ticker.stop();
    watcher?.stop();
    const keep = filesWorker();
    Promise.all(workers.filter((w) => w !== keep).map((w) => w.terminate())).then(() => {
      settle({ exitCode: Atomics.load(control, HEADER.EXIT_CODE), trap });
    });
  }

  // A thread's report, from its worker or (main here) from the C main on this thread.
  function onReport(msg, worker) {
    switch (msg.type) {
      case 'start-worker': if (options.waitForPool) growPool(); spawnWorker(msg.slot); break;
      case 'stdio': writeStdio(msg.fd, msg.bytes); break;
      case 'fate': end(); break;
      case 'trap':
        if (worker && worker === filesWorker()) files.fail('the file service thread trapped');
        end(trapReport(msg));
        break;
      case 'failed': end(msg.message); break;
      case 'files-fill': case 'files-done': case 'files-failed': files.onMessage(msg); break;
      case 'stamp-ticker': ticker.request(msg.at); break;
      default: break;
    }
  }

  let starting = 0; // workers created and not yet ready
  // { worker, ready } of the slot's worker: a slot's first call starts it, a later one (--fs=js's
  // host thread, a pool after the early threads' workers) gets the same
  function spawnWorker(slot) {
    if (spawnedForSlot.has(slot)) return spawnedForSlot.get(slot);
    let readyResolve;
    starting++;
    const ready = new Promise((resolve) => { readyResolve = () => { starting--; resolve(); }; });
    const onMessage = (msg) => { if (msg.type === 'ready') readyResolve(); else onReport(msg, worker); };
    const onError = (err) => end(`worker failed: ${err.message}`);
    const create = (lifeline) => threadWorkers.createWorker(onMessage, onError, lifeline);
    // the main thread's worker, or the first thread's, may have been started before the
    // program (host/program/early-worker.js)
    const early = slot === undefined ? options.earlyWorker : takeEarlyThreadWorker(slot);
    // whether the watcher holds its lifeline: a worker whose threads start workers reads it then
    // (host/program/own-end.js), so it is settled before main starts (watchUnready)
    const lifelineWatched = new Int32Array(new SharedArrayBuffer(4));
    const worker = early ? adoptEarly(early, onMessage, onError, lifelineWatched)
      : (watcher ? watcher.watched((lifeline) => { lifelineWatched[0] = 1; return create(lifeline); }) : create());
    workers.push(worker);
    // (a view of the module's bytes is sent as a copy of its own bytes, not of the module's)
    const mainOnly = slot === undefined ? { preload: preload.map((bytes) => bytes.slice()) } : {};
    worker.post({ type: 'init', ...base, ...mainOnly, slot, lifelineWatched });
    // isReady: its 'ready' came (a worker that watches itself does so by then); lifeline: an
    // early worker's, not yet given to the watcher (watchUnready)
    const spawned = { worker, ready, isReady: false, lifeline: early && selfWatching ? early.lifeline : null, lifelineWatched };
    ready.then(() => { spawned.isReady = true; });
    if (slot !== undefined) spawnedForSlot.set(slot, spawned);
    return spawned;
  }

  // options.earlyThreadWorkers: workers started before the program for its first threads, as
  // many as an earlier run of the module used (cli/run/thread-hint.js); slot N takes the Nth.
  const earlyThreadWorkers = options.earlyThreadWorkers ?? (options.earlyThreadWorker ? [options.earlyThreadWorker] : []);
  function takeEarlyThreadWorker(slot) {
    const early = earlyThreadWorkers[slot] ?? null;
    if (early) earlyThreadWorkers[slot] = null;
    return early;
  }
  function adoptEarly(early, onMessage, onError, lifelineWatched) {
    const worker = early.adopt(onMessage, onError);
    if (early.lifeline && watcher && !selfWatching) {
      if (watcher.adopted(early.lifeline)) lifelineWatched[0] = 1;
      else onError(new Error('worker exited before the program ended'));
    }
    return worker;
  }
  // Where workers watch themselves once their code runs (host/threads/lifelines.js), the watcher
  // is started, as main starts, only for the early workers that have not reported ready by
  // then: its boot would take a core from the program's threads (docs/HOST.md, "Tenth pass").
  function watchUnready() {
    for (const spawned of spawnedForSlot.values()) {
      if (!spawned.lifeline || spawned.isReady) continue;
      if (watcher.adopted(spawned.lifeline)) spawned.lifelineWatched[0] = 1;
      else end('worker failed: worker exited before the program ended');
      spawned.lifeline = null;
    }
  }

  // The threads' workers started early boot on once main's instance exists: their slots are
  // STARTING, so the first pthread_creates take them (claimSlot) instead of making a worker each
  // then. With waitForThreadWorkers (the module's earlier runs started threads), main waits for
  // them, as Emscripten's main waits for its PTHREAD_POOL_SIZE workers: they boot beside the
  // compile, and main's threads then start at once, with no worker booting beside them.
  async function initEarlyThreadWorkers() {
    const ready = [];
    earlyThreadWorkers.forEach((early, slot) => {
      if (!early || slot >= maxThreads) return;
      Atomics.store(control, slotIndex(slot), SLOT.STARTING);
      ready.push(spawnWorker(slot).ready);
    });
    if (options.waitForThreadWorkers) await Promise.race([Promise.all(ready), ended]);
  }

  function startPool(size) {
    for (let slot = 0; slot < size; slot++) Atomics.store(control, slotIndex(slot), SLOT.STARTING);
    return Array.from({ length: size }, (_, slot) => spawnWorker(slot));
  }

  let started = false;
  let disposed = false;
  // mainThread: where the C main runs, 'here' (this thread) or 'worker'
  function program(start, mainThread = 'worker') {
    return {
      files: files.api,
      exited: ended,
      mainThread,
      // how many threads the program has started so far (thread ids are handed out from 1)
      threadsStarted: () => Atomics.load(control, HEADER.NEXT_TID) - 1,
      // how many thread workers have run a thread: about the most threads it had at once
      workersUsed: () => slotsUsed(control),
      start() {
        if (started) throw new Error('start: the program was started already');
        started = true;
        start();
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        files.fail('the program was disposed');
        if (!ending) end('disposed before the program ended');
        // started for threads that never came
        earlyThreadWorkers.forEach((_, slot) => takeEarlyThreadWorker(slot)?.terminate());
        // the mounts' leftover fds are closed once no thread can use them any more
        Promise.all([ended, filesWorker()?.terminate()]).then(() => mounts.dispose());
      },
    };
  }

  if (jsfs && isNode) {
    options.earlyWorker?.terminate(); // the C main needs no worker here
    // The C main runs here, on Node's main thread, as Emscripten runs it (host/jsfs/host-thread.js).
    const hostMain = jsfsHost.instantiateOnHostThread({
      ...base, channel: base.jsfs.channel, platform, spawnWorker, end,
    });
    const pool = startPool(poolSize);
    const [lifelines] = await Promise.all([import('../threads/lifelines.js'),
      Promise.race([Promise.all(pool.map((p) => p.ready)), ended])]);
    // The pool has booted; a worker started later, from inside a wait of the C main (more
    // threads than the pool), could die booting unheard: a lifeline watches it.
    watcher = lifelines.lifelineWatcher(control, { endsProcess: false });
    return program(() => { if (!ending) hostMain.run(); }, 'here');
  }
  if (jsfs) {
    // Browsers: every thread runs on a worker and proxies its file calls to this page's main
    // thread, which serves them from its event loop and never blocks.
    const stdioOnWorkers = new Proxy({}, { get: () => () => 8 /* EBADF: fds 0-2 never come here */ });
    const { server } = jsfsHost.jsFsHost(base.jsfs.channel, memory, stdioOnWorkers);
    server.serveForever(() => ending);
  }

  // A spawn found no idle worker: the program wants more threads than the pool has, so start
  // another pool's worth of idle workers now rather than one per pthread_create later
  // (waitForPool only: spare workers booting while the program runs take cores from it).
  function growPool() {
    if (starting > 0) return; // a growth is under way; a burst must not multiply it
    let added = 0;
    for (let slot = 0; slot < maxThreads && added < poolSize; slot++) {
      if (Atomics.compareExchange(control, slotIndex(slot), SLOT.EMPTY, SLOT.STARTING) === SLOT.EMPTY) {
        spawnWorker(slot);
        added++;
      }
    }
  }

  // options.mainThread 'here' (Node): the C main runs on this thread, so no worker boots on the
  // way to main (docs/HOST.md, "Start-up"). While main is in wasm this thread reads no message,
  // so each thread's worker ends the process itself and starts its threads' workers
  // (host/program/own-end.js); runs that need this thread's services (the files API, mounts
  // served through its event loop, a pool before main) or a host without the addon's exit take
  // a worker for main.
  const exitNow = options.mainThread === 'here' && isNode ? (await import('../platform/process-exit.js')).processExit() : null;
  if (exitNow && !files.mailbox && !mounts.servedHere && !options.waitForPool) {
    options.earlyWorker?.terminate();
    base.endsProcess = true;
    // a worker that dies while it boots is noticed by no event loop here while main is in wasm
    const lifelines = await import('../threads/lifelines.js');
    watcher = lifelines.lifelineWatcher(control, { endsProcess: true, stderrFd: base.io.stderrFd ?? 2 });
    selfWatching = lifelines.workersWatchThemselves();
    // a process that ends by its host's own error (no fate set) takes its workers with it: no
    // worker vanished then, and none must say so
    process.once('exit', () => Atomics.compareExchange(control, HEADER.FATE, FATE.RUNNING, FATE.EXITED));
    const report = (msg) => {
      // A closed stdout ends the run at once, as SIGPIPE's default action does: nothing here
      // could stop a main that goes on without writing.
      if (msg.type === 'fate' && Atomics.load(control, HEADER.EXIT_CODE) === BROKEN_PIPE_EXIT) exitNow(BROKEN_PIPE_EXIT);
      onReport(msg, null);
    };
    // main's instance first, before any thread's: the first instance runs the data-segment
    // initialisation, and only its __tls_base is the main thread's static TLS
    let instance;
    try {
      instance = instantiate({ ...base, slot: undefined, preload }, report, { platform, wasiFiles });
    } catch (err) {
      end(`instantiation failed: ${err.message}`);
      return program(() => {}, 'here');
    }
    await initEarlyThreadWorkers();
    watchUnready();
    return program(() => { if (!ending) runMain(control, instance, report); }, 'here');
  }

  // The main instance must be instantiated first: the instance that runs the data-segment
  // initialisation is the only one whose __tls_base points at the main thread's static TLS.
  const main = spawnWorker(undefined);
  await Promise.race([main.ready, ended]);
  await initEarlyThreadWorkers();
  // By default main starts now and workers on demand: a pthread_create that finds none starts
  // one for its slot (it returns at once; the thread runs when the worker is ready). A worker's
  // boot takes ~30 ms of a core, which workers booting while main runs would take from the
  // program. options.waitForPool starts the whole pool first, as benchmarks that time their
  // first pthread_create want (docs/HOST.md, "Start-up").
  if (options.waitForPool) {
    const pool = startPool(poolSize);
    await Promise.race([Promise.all(pool.map((p) => p.ready)), ended]);
  }
  const startMain = () => { if (!ending) main.worker.post({ type: 'start' }); };
  if (!files.mailbox) return program(startMain);
  // With the files API, _start runs now as far as the service's constructor, which starts the
  // service thread and holds main until start() (files_api_service.c): requests made before start()
  // are served, in order, before any of the program's code runs.
  startMain();
  return program(() => files.releaseMain().catch(() => {}));
}

