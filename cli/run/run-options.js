// `spindle run`'s options, each defined once (RUN_OPTIONS): the usage text, the parse, what
// `spindle cargo` passes on to its runner and what makes the C main run in a worker all come
// from this table. The one scan of a run's arguments (scanRunArgs) is made by the early start
// (cli/run/run-early.js, before the CLI's modules load) and read again by cli/run/run.js.
import { resolve } from 'node:path';
import { COMPILATION_MODES } from '../../host/compile/compilation-modes.js';
import { parseBrowserName } from '../browser/browser-names.js';
import { parseSize, readOption } from '../common/options.js';

const positiveInteger = (flag, value) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}=${value}: expected a positive integer`);
  return n;
};

/** `--code-cache`'s value as the host takes it: true (on), false (off) or a directory. */
export const codeCacheOption = (value) => (value === 'on' ? true : value === 'off' ? false : resolve(value));

/**
 * `/PATH=HOSTDIR[,symlinks=any][,quota=SIZE]` or `/PATH=opfs[:SUBDIR]` -> a host API mount spec.
 * The options are read from the end, so a directory name may hold commas.
 */
export function parseMount(spec) {
  const eq = spec ? spec.indexOf('=') : -1;
  if (eq <= 0 || eq === spec.length - 1) throw new Error(`--mount ${spec ?? ''}: expected /PATH=HOSTDIR or /PATH=opfs[:SUBDIR]`);
  const path = spec.slice(0, eq);
  let target = spec.slice(eq + 1);
  const options = {};
  for (let m; (m = /,(symlinks|quota)=([^,]*)$/.exec(target)) && target.length > m[0].length;) {
    options[m[1]] = m[1] === 'quota' ? parseSize(m[2], `--mount ${path}: quota`) : m[2];
    target = target.slice(0, m.index);
  }
  if (target === 'opfs' || target.startsWith('opfs:')) {
    if (Object.keys(options).length) throw new Error(`--mount ${path}=opfs: symlinks= and quota= are options of host directories`);
    return { path, opfs: target.slice(5) };
  }
  return { path, hostDir: resolve(target), ...options };
}

/**
 * Each option: `flag`; `kind`, as cli/common/options.js's readOption takes it; `help`, its lines
 * in the usage text ([form, text] pairs); `synopsis`, its short form in `spindle cargo`'s usage,
 * where `cargo` marks the options cargo run/test/bench pass on to `spindle run`; `mainInWorker`:
 * the C main then runs in a worker (cli/run/main-thread-choice.js); `unset`: what the run's
 * options hold where it is not given; `apply(opts, value)`: what it sets in them.
 */
export const RUN_OPTIONS = [
  {
    // `--browser` alone is Chromium; `--browser=firefox` (only with =: a module may be named firefox)
    flag: '--browser', kind: () => false, cargo: true, synopsis: '--browser[=chromium|firefox|webkit]',
    help: [['--browser', 'run in headless Chromium instead of Node'],
      ['--browser=chromium|firefox|webkit', 'run in that headless browser (Firefox: firefox-esr; WebKit:',
        "WebKitGTK's MiniBrowser under a private Xvfb, no OPFS mounts)"]],
    unset: { browser: false },
    apply: (opts, value) => { opts.browser = parseBrowserName(value); },
  },
  {
    // `--env` alone passes the whole environment; `--env NAME=VALUE` sets one variable
    flag: '--env', kind: (next) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(next), cargo: true, synopsis: '--env[=NAME=VALUE]',
    help: [['--env', 'pass the whole environment (none by default)'], ['--env=NAME=VALUE', 'set one variable (repeatable)']],
    unset: { env: {}, inheritEnv: false },
    apply: (opts, value) => {
      if (value === null) { opts.inheritEnv = true; return; }
      const eq = value.indexOf('=');
      if (eq <= 0) throw new Error(`--env=${value}: expected NAME=VALUE`);
      opts.env[value.slice(0, eq)] = value.slice(eq + 1);
    },
  },
  {
    flag: '--pool', kind: 'a number of workers', cargo: true, synopsis: '--pool=N',
    help: [['--pool=N', 'workers for threads (default max(4, cores)): started before main',
      'with --wait-for-pool, else on demand as threads are created']],
    unset: { poolSize: undefined },
    apply: (opts, value) => { opts.poolSize = positiveInteger('--pool', value); },
  },
  {
    // the pool is started from the main thread's event loop, which a C main there would hold
    flag: '--wait-for-pool', kind: 'switch', cargo: true, mainInWorker: true, synopsis: '--wait-for-pool',
    help: [['--wait-for-pool', "start the pool's workers before main (for benchmarks that time",
      'their first pthread_create)']],
    unset: { waitForPool: false },
    apply: (opts) => { opts.waitForPool = true; },
  },
  {
    // most threads alive at once (the host's maxThreads, docs/HOST.md)
    flag: '--max-threads', kind: 'a number of threads', cargo: true, synopsis: '--max-threads=N',
    help: [['--max-threads=N', 'most threads alive at once, main excluded (default 1024); the',
      'next pthread_create fails with EAGAIN']],
    unset: { maxThreads: undefined },
    apply: (opts, value) => { opts.maxThreads = positiveInteger('--max-threads', value); },
  },
  {
    // when V8 compiles the module's functions (host/compile/compilation.js, docs/HOST.md)
    flag: '--compile', kind: `${COMPILATION_MODES.slice(0, -1).join(', ')} or ${COMPILATION_MODES.at(-1)}`, cargo: true, synopsis: `--compile=${COMPILATION_MODES.join('|')}`,
    help: [[`--compile=${COMPILATION_MODES.join('|')}`, 'TurboFan code for every function before main (eager), or each',
      'function compiled at its first call, hot ones optimized (lazy);',
      'auto (default): the module\'s cached TurboFan code, lazy where none',
      'is cached yet or its last run was short (docs/HOST.md); V8 only']],
    unset: { compilation: 'auto' },
    apply: (opts, value) => {
      if (!COMPILATION_MODES.includes(value)) throw new Error(`--compile=${value}: expected ${COMPILATION_MODES.join(', ')}`);
      opts.compilation = value;
    },
  },
  {
    // where compiled code is kept between runs (host/code-cache/, docs/HOST.md)
    flag: '--code-cache', kind: 'on, off or a directory', synopsis: '--code-cache=on|off|DIR',
    help: [['--code-cache=on|off|DIR', "keep V8's optimized code between runs (on, the default: in",
      '~/.cache/spindle/code or $SPINDLE_CODE_CACHE_DIR), so a later run',
      'of the same module starts without compiling; with --browser',
      '(Chromium), the code Chromium cached for the page, kept in',
      '.../chromium-profile (docs/HOST.md, "Cached code in pages")']],
    unset: { codeCache: true },
    apply: (opts, value) => {
      if (value === '') throw new Error('--code-cache=: expected on, off or a directory');
      opts.codeCache = codeCacheOption(value);
    },
  },
  {
    // files and directory trees put into the in-memory tree before main (docs/FILES.md)
    flag: '--preload', kind: 'a file or directory, HOSTPATH[@/PATH]', cargo: true, synopsis: '--preload=HOSTPATH[@/PATH]',
    help: [['--preload=HOSTPATH[@/PATH]', 'put a host file or directory into the tree before main (repeatable)']],
    unset: { preload: [] },
    apply: (opts, value) => { opts.preload.push(value); },
  },
  {
    // a host directory (Node) or OPFS (--browser) inside the tree (docs/MOUNTS.md)
    flag: '--mount', kind: 'a mount, /PATH=HOSTDIR or /PATH=opfs[:SUBDIR]', cargo: true,
    synopsis: '--mount=/PATH=HOSTDIR[,symlinks=any][,quota=SIZE]|opfs[:SUBDIR]',
    help: [['--mount=/PATH=HOSTDIR[,symlinks=any][,quota=SIZE]', 'a host directory as /PATH, read and written in place (Node);',
      'symlinks=any lets the program make symlinks that point outside',
      'it (refused by default), quota=SIZE (e.g. 1G) caps the bytes it',
      'may add to the directory\'s files (then ENOSPC); docs/MOUNTS.md'],
    ['--mount=/PATH=opfs[:SUBDIR]', "the browser's origin-private file system as /PATH (--browser)"]],
    unset: { mounts: [] },
    apply: (opts, value) => { opts.mounts.push(parseMount(value)); },
  },
  {
    flag: '--help', kind: 'switch', synopsis: '--help', help: [['--help', 'this text']],
    unset: { help: false },
    apply: (opts) => { opts.help = true; },
  },
];

const byFlag = new Map(RUN_OPTIONS.map((option) => [option.flag, option]));
const kinds = Object.fromEntries(RUN_OPTIONS.map((option) => [option.flag, option.kind]));

/** The option `flag` names (undefined: not a run option). */
export const runOption = (flag) => byFlag.get(flag);

// The usage's columns: options from the fourth, their text from the 32nd or, after a long
// option, on the next line.
const TEXT_COLUMN = 31;

function usageLines([form, ...text]) {
  const indent = ' '.repeat(TEXT_COLUMN);
  const head = `    ${form}`;
  const lines = head.length < TEXT_COLUMN ? [head.padEnd(TEXT_COLUMN) + text[0]] : [head, indent + text[0]];
  return [...lines, ...text.slice(1).map((line) => indent + line)];
}

export const runUsage = `usage: spindle run [options] app.wasm [args...]
  Runs a module built by spindle cc in Node (default) or a headless browser, with the terminal's
  stdin, stdout and stderr; the exit status is the program's. Options (before app.wasm):
${RUN_OPTIONS.flatMap((option) => option.help.flatMap(usageLines)).join('\n')}
${usageLines(['--', 'ends the options (for a module whose name starts with --)']).join('\n')}
`;

/**
 * The options before app.wasm, in order, as [{ flag, value }], and the module's index in `argv`
 * (argv.length where none is given); { help: true } at -h or --help. Throws at an option it does
 * not know or one that lacks its value.
 */
export function scanRunArgs(argv) {
  const options = [];
  let i = 0;
  while (i < argv.length && argv[i].startsWith('-')) {
    if (argv[i] === '--') { i++; break; }
    if (argv[i] === '-h') return { help: true, options, index: i };
    const option = readOption(argv, i, kinds);
    if (!option) throw new Error(`unknown option ${argv[i].split('=')[0]}\n${runUsage}`);
    if (option.flag === '--help') return { help: true, options, index: i };
    options.push({ flag: option.flag, value: option.value });
    i = option.next;
  }
  return { help: false, options, index: i };
}

/** What a run's options hold before any is given: each option's `unset` (fresh arrays and objects). */
export const runDefaults = () => Object.assign({}, ...RUN_OPTIONS.map((option) => structuredClone(option.unset)));

/** The options of a scan applied in order over runDefaults(). */
export function applyRunOptions(scan) {
  const opts = runDefaults();
  if (scan.help) { opts.help = true; return opts; }
  for (const { flag, value } of scan.options) byFlag.get(flag).apply(opts, value);
  return opts;
}

/**
 * What the program of a run is given, the same in Node (host/index.js's createProgram) and in a
 * browser (cli/browser/browser-session.js's run): its arguments, environment, threads, preloaded
 * files and mounts.
 */
export const programOptions = (opts) => ({ args: opts.args, env: opts.env, poolSize: opts.poolSize, maxThreads: opts.maxThreads,
  waitForPool: opts.waitForPool, preload: opts.preloadBytes, mounts: opts.mounts });
