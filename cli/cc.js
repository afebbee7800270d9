// `spindle cc` / `spindle c++`: a clang driver for wasm32-wasip1-threads. It adds the target,
// sysroot, threads, an imported shared memory with a settable maximum, stack sizes,
// --fatal-warnings (a wrong import signature is otherwise only a warning, then a trap), and links
// the selected Spindle runtime components. Every other argument goes to clang unchanged, so
// Makefiles and CMake can use it as CC/CXX.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendPreloadSection, collectPreload } from './preload-files.js';
import { componentArchive } from './runtime-lib.js';
import { clang, clangxx, requireSetup, root, sysroot, target, toolchainDir } from './toolchain.js';

const WASM_PAGE = 65536;
const choices = {
  malloc: ['spindle', 'dlmalloc', 'mimalloc'],
  fs: ['none', 'spindle', 'js'],
};
const defaults = {
  malloc: 'spindle',
  fs: 'spindle',
  maxMemory: 1 << 30,
  stackSize: 1 << 20,
  threadStackSize: 256 << 10,
};

const cxxSource = /\.(cc|cpp|cxx|c\+\+|C|CC|CPP|mm)$/;
const anySource = /\.(c|i|cc|cpp|cxx|c\+\+|C|CC|CPP|m|mm)$/;
// wasi-libc's errno is a plain thread-local variable, and LLVM assumes the allocation functions
// touch only memory the program cannot see, so at -O1+ it moves `errno = 0` across a failing
// malloc and the program never sees ENOMEM. (Natively errno hides behind __errno_location().)
const errnoSafeAllocation = ['malloc', 'calloc', 'realloc', 'aligned_alloc', 'strdup', 'strndup']
  .map((f) => `-fno-builtin-${f}`);
const compileOnlyFlags = new Set(['-c', '-S', '-E', '-fsyntax-only', '-M', '-MM']);

export function parseSize(text, what) {
  const m = /^(\d+)([kKmMgG]i?[bB]?)?$/.exec(text);
  if (!m) throw new Error(`${what}: '${text}' is not a size (e.g. 65536, 512K, 64M, 1G)`);
  const unit = { k: 1 << 10, m: 1 << 20, g: 1 << 30 }[(m[2] || '').charAt(0).toLowerCase()] || 1;
  return Number(m[1]) * unit;
}

/** Splits Spindle's own options from the arguments that go to clang. */
export function parseArgs(args) {
  const opts = { ...defaults, clangArgs: [], bare: false, preload: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, value] = arg.startsWith('--') ? [arg.split('=')[0], arg.slice(arg.indexOf('=') + 1)] : [arg];
    switch (flag) {
      case '--malloc':
      case '--fs': {
        const key = flag.slice(2);
        if (!choices[key].includes(value)) {
          throw new Error(`${flag}=${value}: choose one of ${choices[key].join(', ')}`);
        }
        opts[key] = value;
        break;
      }
      case '--max-memory': opts.maxMemory = parseSize(value, flag); break;
      case '--stack-size': opts.stackSize = parseSize(value, flag); break;
      case '--thread-stack-size': opts.threadStackSize = parseSize(value, flag); break;
      // A plain wasi-libc program with Spindle's link flags and none of its runtime, for hosts
      // other than Spindle's (the runtime imports from the "spindle" module).
      case '--bare': opts.bare = true; break;
      // Files and directory trees placed in the in-memory tree before main (docs/FILES.md).
      // As Emscripten's: `--preload-file SPEC` or `--preload-file=SPEC`.
      case '--preload-file': {
        const spec = arg.includes('=') ? value : args[++i];
        if (!spec) throw new Error('--preload-file HOSTPATH[@/PATH]: give a file or directory');
        opts.preload.push(spec);
        break;
      }
      default: opts.clangArgs.push(arg);
    }
  }
  if (opts.maxMemory % WASM_PAGE) throw new Error(`--max-memory must be a multiple of 64 KiB`);
  if (opts.stackSize % 16 || opts.threadStackSize % 16) throw new Error('stack sizes must be multiples of 16');
  if (opts.preload.length && (opts.fs !== 'spindle' || opts.bare)) {
    throw new Error('--preload-file needs the Spindle filesystem (--fs=spindle, not --bare)');
  }
  return opts;
}

function isLinking(clangArgs) {
  return !clangArgs.some((a) => compileOnlyFlags.has(a)) && !clangArgs.includes('--version') &&
    !clangArgs.some((a) => a === '-print-search-dirs' || a.startsWith('-print-'));
}

// Link-time settings applied before main by a tiny generated object (cached per value): the
// default pthread stack size (musl's __default_stacksize, read by pthread_attr_init and
// pthread_create), and a 16 KiB stdout buffer (when not a terminal) instead of wasi-libc's 1 KiB, since every
// flush is a host call (in a browser run, an HTTP request). A direct object, not an archive
// member: wasm-ld drops constructors of members nothing references.
function settingsObject(threadStackSize) {
  const dir = join(toolchainDir, 'runtime', 'config');
  const obj = join(dir, `settings-${threadStackSize}.o`);
  if (!existsSync(obj)) {
    mkdirSync(dir, { recursive: true });
    const src = join(dir, `settings-${threadStackSize}.${process.pid}.c`);
    writeFileSync(src, [
      '#include <stdio.h>',
      '#include <unistd.h>',
      'extern unsigned int __default_stacksize;',
      'static char stdout_buffer[16384]; // musl ignores setvbuf\'s size without a buffer',
      '__attribute__((constructor)) static void spindle_apply_settings(void) {',
      `  __default_stacksize = ${threadStackSize}u;`,
      '  if (!isatty(1)) setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);',
      '}', ''].join('\n'));
    const tmp = `${obj}.${process.pid}`;
    const r = spawnSync(clang, [`--target=${target}`, `--sysroot=${sysroot}`, '-pthread', '-O2', '-c', src, '-o', tmp],
      { stdio: 'inherit' });
    rmSync(src, { force: true });
    if (r.status !== 0) throw new Error('building the link-time settings object failed');
    renameSync(tmp, obj);
  }
  return obj;
}

/** The runtime's link inputs for `opts`, in clang's form (-Wl,... flags, archives); reused by cli/rust-linker.js. */
export async function runtimeLinkArgs(opts) {
  if (opts.bare) return [];
  const args = ['-Wl,--wrap=sysconf,--wrap=pthread_create,--wrap=_pthread_cleanup_push,--wrap=_pthread_cleanup_pop',
    settingsObject(opts.threadStackSize), await componentArchive('core')];
  if (opts.malloc === 'spindle') args.push(await componentArchive('alloc'));
  // runtime/core/dlmalloc_memory_view.c: refresh a thread's view of grown memory (V8).
  if (opts.malloc === 'dlmalloc') args.push('-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc');
  // runtime/wasi binds libc's file calls to runtime/fs, so it comes first.
  // Keep runtime/wasi/host_files.c, whose constructor starts the files API's service thread
  // when the host asks (host/files). Nothing references it, and wasm-ld keeps constructors only
  // of objects with a live symbol (-u alone is not enough), so one tiny function is exported.
  if (opts.fs === 'spindle') {
    args.push('-Wl,--export=__spindle_files_link', await componentArchive('wasi'), await componentArchive('fs'));
  }
  // The JS FS baseline (host/jsfs, docs/JSFS.md): files are served by the host; runtime/jsfs
  // only hooks libc's futex wait so that the host thread serves other threads while it blocks.
  // -u: the hook is a weak reference in libc, which pulls nothing from an archive by itself.
  if (opts.fs === 'js') args.push('-Wl,-u,__wasilibc_futex_wait_maybe_busy', await componentArchive('jsfs'));
  if (opts.malloc === 'mimalloc') {
    const lib = join(toolchainDir, 'mimalloc', 'libmimalloc-wasm.a');
    if (!existsSync(lib)) {
      const r = spawnSync('bash', [join(root, 'tools', 'mimalloc', 'build.sh')], { stdio: 'inherit' });
      if (r.status !== 0 || !existsSync(lib)) throw new Error('building mimalloc for wasm failed');
    }
    args.push(lib);
  }
  return args;
}

/**
 * wasm-ld flags every Spindle module needs: the memory must be imported (or each worker's
 * instance would get its own) with a maximum (or it cannot grow), and a wrong import signature
 * must fail the link (otherwise it is only a warning, then a trap at run time).
 */
export function moduleLinkerFlags(opts) {
  return ['--import-memory', '--export-memory', '--shared-memory', `--max-memory=${opts.maxMemory}`,
    '-z', `stack-size=${opts.stackSize}`, '--fatal-warnings'];
}

// Where clang writes the linked module: -o FILE, -oFILE, or a.out.
function outputPath(clangArgs) {
  let out = 'a.out';
  clangArgs.forEach((a, i) => {
    if (a === '-o' && i + 1 < clangArgs.length) out = clangArgs[i + 1];
    else if (a.startsWith('-o') && a.length > 2) out = a.slice(2);
  });
  return out;
}

export async function compile(args, { cxx }) {
  requireSetup();
  const opts = parseArgs(args);
  const isCxx = cxx || opts.clangArgs.some((a) => !a.startsWith('-') && cxxSource.test(a));
  const argv = [`--target=${target}`, `--sysroot=${sysroot}`, '-pthread'];
  // libc++ here is built without exceptions (see docs/TOOLCHAIN.md).
  if (isCxx) argv.push('-fno-exceptions');
  if (opts.clangArgs.some((a) => !a.startsWith('-') && anySource.test(a))) argv.push(...errnoSafeAllocation);
  argv.push(...opts.clangArgs);
  if (isLinking(opts.clangArgs) && opts.clangArgs.length > 0) {
    argv.push(...(await runtimeLinkArgs(opts)));
    argv.push(`-Wl,${moduleLinkerFlags(opts).join(',')}`);
  }
  const linking = isLinking(opts.clangArgs) && opts.clangArgs.length > 0;
  if (opts.preload.length && !linking) throw new Error('--preload-file applies when linking a module');
  if (opts.preload.length) collectPreload(opts.preload, '--preload-file'); // bad specs fail before clang runs
  const r = spawnSync(isCxx ? clangxx : clang, argv, { stdio: 'inherit' });
  if (r.error) throw new Error(`cannot run ${isCxx ? clangxx : clang}: ${r.error.message}`);
  if (r.status === 0 && opts.preload.length) appendPreloadSection(outputPath(opts.clangArgs), opts.preload);
  return r.status ?? 1;
}
