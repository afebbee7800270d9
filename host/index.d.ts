// Types of Spindle's host API (host/index.js). The same API runs in Node >= 20 and in browsers
// (the page must be cross-origin isolated: COOP same-origin + COEP require-corp).

/** A compiled program: compile once, run as often as you like. */
export interface CompiledProgram {
  module: WebAssembly.Module;
  /** Limits of the module's imported shared memory, in 64 KiB pages. */
  memoryLimits: { module: string; name: string; initial: number; maximum?: number; shared: boolean };
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
  /** Workers started (and instantiated) before main runs; pthread_create takes one. Default max(4, cores). */
  poolSize?: number;
  /** Most threads alive at once, main excluded. Default 1024. */
  maxThreads?: number;
  /** What sysconf(_SC_NPROCESSORS_ONLN) answers. Default: the host's core count. */
  cpuCount?: number;
}

export interface RunResult {
  /** The program's exit code: main's return value, exit()'s argument, or 134 after a trap. */
  exitCode: number;
  /** Set when a trap (or a failed worker) ended the program: which thread, and the message. */
  trap?: string;
}

/** Compiles wasm bytes, or fetches and compiles a URL. */
export function compile(source: Uint8Array | ArrayBuffer | string | URL): Promise<CompiledProgram>;
/** Runs a compiled program to its end, threads as workers; the calling thread never blocks. */
export function runProgram(program: CompiledProgram, options?: RunOptions): Promise<RunResult>;
/** compile + runProgram. */
export function run(source: Uint8Array | ArrayBuffer | string | URL, options?: RunOptions): Promise<RunResult>;
