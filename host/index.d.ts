// Types of Spindle's host API (host/index.js). The same API runs in Node >= 20 and in browsers
// (the page must be cross-origin isolated: COOP same-origin + COEP require-corp).

/** A compiled program: compile once, run as often as you like. */
export interface CompiledProgram {
  module: WebAssembly.Module;
  /** Limits of the module's imported shared memory, in 64 KiB pages. */
  memoryLimits: { module: string; name: string; initial: number; maximum?: number; shared: boolean };
  /** The module's spindle.preload section (spindle cc --preload-file), a view of its bytes; or null. */
  preload?: Uint8Array | null;
  /**
   * How V8 compiled it: 'eager' (every function before main) or 'lazy' (each at its first call),
   * in Node; 'browser' in a browser, whose own flags decide (docs/HOST.md, "Compilation").
   */
  compilation: 'eager' | 'lazy' | 'browser';
  /**
   * Which of V8's compilers ran it in Node, chosen by Node version and code size
   * (docs/HOST.md, "Node versions"); 'browser' in a browser.
   */
  tiers: 'optimized' | 'tiered' | 'background' | 'optimized-no-inlining' | 'browser';
  /** Why those compilers, e.g. 'Node 24, 60 KiB of code (under 256 KiB): TurboFan only'. */
  tiersReason: string;
  /**
   * What the compiled-code cache did (docs/HOST.md, "Compiled-code cache"): 'hit' (machine code
   * from an earlier run), 'stored' (compiled, and its code kept), or 'off' / 'off: WHY'. In a
   * browser: 'browser: streamed from URL' where the browser may cache the code itself
   * (docs/HOST.md, "Cached code in pages"), else 'off' / 'off: WHY'.
   */
  codeCache: string;
  /**
   * Where the module runs Liftoff code (Node, compiled lazily, no cached code): the bytes each
   * pthread's worker compiles a module of its own from, so that threads do not share V8's tier-up
   * counters (docs/HOST.md, "Thirteenth pass"); else null.
   */
  threadModuleBytes?: Uint8Array | null;
}

export interface CompileOptions {
  /**
   * Node: 'eager' compiles every function on V8's background
   * threads before compile() resolves; 'lazy' compiles each on the thread that first calls it;
   * 'auto' (default) is eager. V8 keeps one compiled module per identical bytes in a process:
   * the first compile of them decides.
   * Browsers: ignored (a page cannot set V8's flags).
   */
  compilation?: 'auto' | 'eager' | 'lazy';
  /**
   * Node: true, or a directory, to keep V8's TurboFan code between runs and load it instead of
   * compiling when the same module is compiled again (true: $SPINDLE_CODE_CACHE_DIR, else
   * $XDG_CACHE_HOME/spindle/code, else ~/.cache/spindle/code). Off by default in the API (on in
   * `spindle run`): it takes over WebAssembly.compileStreaming in the calling thread.
   * SPINDLE_CODE_CACHE=0 turns it off everywhere. Browsers: ignored (they cache on their own).
   */
  codeCache?: boolean | string;
}

/** A stdio fd as fstat and /proc/self/fd show it; 64-bit numbers as decimal strings. */
export interface StdioDescription {
  /** WASI's file type: 0 a pipe, 2 a terminal or other character device, 4 a regular file */
  filetype: number;
  dev: string; ino: string; nlink: string; size: string;
  atimNs: string; mtimNs: string; ctimNs: string;
  /** Linux's /proc/self/fd text: "/dev/null", a path, "pipe:[N]", "/dev/pts/N" */
  name: string;
}

export interface RunOptions {
  /** argv, program name first. Default: ['program.wasm']. */
  args?: string[];
  /** Environment variables the program sees. Default: none. */
  env?: Record<string, string>;
  /**
   * Standard input: the bytes of the whole input, or (Node) a file descriptor to read.
   * Default: Node reads fd 0; a browser page gets an empty input.
   */
  stdin?: Uint8Array | number;
  /** Node: file descriptors for the program's stdout/stderr. Default 1 and 2. */
  stdout?: number;
  stderr?: number;
  /**
   * Browser: called on the page with each chunk the program writes to fd 1 or 2 (when no
   * stdioUrl is given). Default: console.log / console.error.
   */
  onStdio?: (fd: 1 | 2, bytes: Uint8Array) => void;
  /**
   * Browser: a URL prefix whose server takes POST {url}/fd/1|2 and GET {url}/stdin?max=N; the
   * workers call it with synchronous XHR, so output is in order and complete at exit.
   */
  stdioUrl?: string;
  /**
   * Browser: the stdioUrl server also answers GET {url}/stdio/0|1|2 with a StdioDescription
   * (JSON) of what its fd is, for the program's fstat and /proc/self/fd; when stdin is a regular
   * file, stdin reads carry &pos=OFFSET (the program may lseek). Default false: stdio is pipes.
   * Node asks its own fds. spindle run --browser describes the CLI's.
   */
  stdioDescribed?: boolean;
  /**
   * With waitForPool, the workers started before main (and how many more start when all are
   * busy). Without it, workers start on demand: a thread's worker when the thread is created (it
   * runs once the worker is ready), kept for later threads. Default max(4, cores).
   */
  poolSize?: number;
  /**
   * Start (and instantiate) the pool's workers before main runs, so that a first pthread_create
   * costs what a later one does; benchmarks that time thread creation want it. Default false:
   * main starts at once (docs/HOST.md, "Start-up").
   */
  waitForPool?: boolean;
  /**
   * A worker from startEarlyWorker(), started before the module was compiled, to run the C main
   * (docs/HOST.md, "Start-up"). Not taken by a --fs=js module in Node, whose C main runs on the
   * host thread: that one is terminated.
   */
  earlyWorker?: EarlyWorker;
  /**
   * Node: a worker from startEarlyWorker({ lifeline: true }), started before the program for its
   * first thread: slot 0 takes it, so a program that starts a thread soon after main does not
   * wait for a whole worker boot then (`spindle run` does this where an earlier run of the
   * module started threads; docs/HOST.md, "Start-up"). Terminated if no thread comes.
   */
  earlyThreadWorker?: EarlyWorker;
  /**
   * Workers from startEarlyWorker (in Node with `{ lifeline: true }`) for the program's first
   * threads: slot N takes the Nth once main's instance exists, so a program's first
   * pthread_creates find workers booted or booting (`spindle run`, in Node and in its page, starts
   * as many as the module's last runs used, two on its first run; docs/HOST.md, "Start-up").
   * Those no thread took are terminated at dispose(). Replaces earlyThreadWorker, which is the
   * one-worker form.
   */
  earlyThreadWorkers?: EarlyWorker[];
  /**
   * With earlyThreadWorkers: main starts once they are ready, so that its first threads start at
   * once (`spindle run` does so where the module's earlier runs started threads, not on its
   * first run; docs/HOST.md, "Start-up").
   */
  waitForThreadWorkers?: boolean;
  /**
   * Node: where the C main runs. 'worker' (default): a worker of its own. 'here': on the
   * calling thread, which then blocks until main returns, and any thread's exit() or trap ends
   * the whole process at once (with the mount addon's exit); for a process that is the run, as
   * `spindle run`'s is (docs/HOST.md, "Start-up"). Runs with the files API, mounts or
   * waitForPool, and hosts without the addon, take a worker all the same.
   */
  mainThread?: 'worker' | 'here';
  /** Most threads alive at once, main excluded. Default 1024 (`spindle run --max-threads=N`); a smaller one also caps the default pool. */
  maxThreads?: number;
  /** What sysconf(_SC_NPROCESSORS_ONLN) answers. Default: the host's core count. */
  cpuCount?: number;
  /**
   * Files to put into the in-memory tree before main, packed in the spindle.preload format
   * (docs/FILES.md; what `spindle run --preload` makes). A module's own spindle.preload section
   * (`spindle cc --preload-file`) is always applied, first.
   */
  preload?: Uint8Array | ArrayBuffer;
  /**
   * Directories of the host mounted into the tree (docs/MOUNTS.md): in Node a host directory
   * (`hostDir`), in a browser the origin private file system (`opfs`: a subdirectory, '' for its
   * root). Mount points are absolute, not '/', not nested; created if missing.
   */
  mounts?: MountSpec[];
}

export type MountSpec = { path: string; hostDir: string;
      /** which symlinks the program may create: 'inside' (default; others EPERM) or 'any' (docs/MOUNTS.md) */ symlinks?: 'inside' | 'any';
      /** bytes the program may add to the directory's files during the run (then ENOSPC); default none */ quota?: number;
      /** serve requests on N I/O workers (tests and measurements) */ ioWorkers?: number }
  | { path: string; opfs: string; /** I/O workers (default 2-4, by core count) */ workers?: number; /** callers that poll for answers (default cores/4; docs/OPFS.md) */ pollers?: number;
      /** ms an I/O worker polls its ring after each answer (default 0.2) */ spinMs?: number;
      /** ms worker 0 waits for another to let go of a file being removed or renamed, then EIO (default 10000) */ detachTimeoutMs?: number;
      /** log unexpected OPFS errors on the I/O workers' consoles */ debug?: boolean };

export interface CreateOptions extends RunOptions {
  /**
   * Start the hidden service thread behind `files` (one pool worker). Default true; with false,
   * `files` calls reject with code 'ENOTSUP' and nothing runs until start().
   */
  files?: boolean;
}

/** An error of a files call: like Node's fs errors. */
export interface FilesError extends Error {
  /** 'ENOENT', 'EISDIR', 'ENOTDIR', 'EEXIST', 'ENOTEMPTY', 'EINVAL', 'ENAMETOOLONG', 'ENOTSUP', ... */
  code: string;
  errno: number;
  syscall: string;
  path: string;
}

export interface FileStat {
  type: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits. */
  mode: number;
  size: number;
  ino: number;
  nlink: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

/**
 * The program's in-memory files, from JavaScript (docs/FILES.md): usable before start(), while
 * the program runs and after it exits, until dispose(). Paths are absolute. Calls run in order,
 * through the same C code and locks as the program's threads; each returns a promise (rejected
 * with a FilesError) and never blocks the calling thread.
 */
export interface ProgramFiles {
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: string): Promise<string>;
  /** Creates or replaces the file (mode 0o644 by default for a new one). */
  writeFile(path: string, data: Uint8Array | ArrayBuffer | ArrayBufferView | string, options?: { mode?: number }): Promise<void>;
  /** Names in the directory ("." and ".." left out), in the directory's order. */
  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<{ name: string; type: FileStat['type'] }[]>;
  /** Follows symlinks. */
  stat(path: string): Promise<FileStat>;
  /** recursive: creates missing parents and accepts an existing directory. */
  mkdir(path: string, options?: { recursive?: boolean; mode?: number }): Promise<void>;
  unlink(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** A symlink at `path` holding `target` as given (it may dangle); EEXIST if `path` exists. */
  symlink(target: string | Uint8Array, path: string): Promise<void>;
}

export interface Program {
  files: ProgramFiles;
  /** Runs main (once). Files calls made before it are done before any of the program's code runs. */
  start(): void;
  /** Settles when the program has ended (after start()). */
  exited: Promise<RunResult>;
  /** Where the C main runs: 'here' (the calling thread: options.mainThread, or a --fs=js module) or 'worker'. */
  mainThread: 'here' | 'worker';
  /** How many threads the program has started so far. */
  threadsStarted(): number;
  /** How many thread workers have run a thread: about the most threads the program had at once. */
  workersUsed(): number;
  /** Ends the program if it still runs, and the files service; files calls reject afterwards. */
  dispose(): void;
}

export interface RunResult {
  /** The program's exit code: main's return value, exit()'s argument, or 134 after a trap. */
  exitCode: number;
  /** Set when a trap (or a failed worker) ended the program: which thread, and the message. */
  trap?: string;
  /**
   * runProgram and run: how many thread workers ran a thread (Program.workersUsed at the end),
   * to start as many early next time (earlyThreadWorkers).
   */
  workersUsed?: number;
}

/**
 * A module: its bytes, a URL to fetch, or a fetch Response (or the promise fetch() returns, so
 * that a page can send its own request headers). In a browser a URL or Response is compiled
 * with WebAssembly.compileStreaming, so that the browser may keep the optimized code for the
 * next visit (docs/HOST.md, "Cached code in pages": serve it as application/wasm from a URL
 * that changes with its bytes, cacheable, with an ETag).
 */
export type ModuleSource = Uint8Array | ArrayBuffer | string | URL | Response | Promise<Response>;

/** Compiles wasm bytes, or fetches and compiles a URL or a Response. */
export function compile(source: ModuleSource, options?: CompileOptions): Promise<CompiledProgram>;
/** Runs a compiled program to its end, threads as workers; the calling thread never blocks. */
export function runProgram(program: CompiledProgram, options?: RunOptions): Promise<RunResult>;
/**
 * Prepares a program without running it: memory, workers and the files API. Rejects if the
 * preloaded files' images are malformed; the C main's thread puts them in before any of the
 * program's code, and a step that fails there ends the program (exit code 134, its `trap` says
 * which step).
 */
export function createProgram(program: CompiledProgram, options?: CreateOptions): Promise<Program>;
/** compile + runProgram (options.compilation goes to compile). */
export function run(source: ModuleSource, options?: RunOptions & CompileOptions): Promise<RunResult>;

/** A thread worker started before its program (docs/HOST.md, "Start-up"). */
export interface EarlyWorker {
  /** Settles when the worker's modules are in: a compile after it does not slow its start. */
  loaded: Promise<void>;
  /** Ends the worker if no program took it. */
  terminate(): void;
}

/**
 * Node: starts the worker that will run the C main, so that it boots while the module is read
 * and compiled; pass it as `earlyWorker` to runProgram or createProgram.
 */
export function startEarlyWorker(options?: {
  /** Node: give the worker a lifeline from its first step (needed for earlyThreadWorker on Node's main thread). */
  lifeline?: boolean;
}): Promise<EarlyWorker>;
