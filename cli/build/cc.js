// `spindle cc` / `spindle c++`: a clang driver for wasm32-wasip1-threads. It adds the target,
// sysroot, threads, an imported shared memory with a settable maximum, stack sizes,
// --fatal-warnings (a wrong import signature is otherwise only a warning, then a trap), and links
// the selected Spindle runtime components. Every other argument goes to clang unchanged, so
// Makefiles and CMake can use it as CC/CXX.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { wantsDebugInfo } from './debug-info.js';
import { probeStartupBytes, startupBytes, tooSmall } from './memory-minimum.js';
import { parseSize, readOption } from '../common/options.js';
import { exceptionCompileFlags, exceptionLinkFlags, exceptionsEnabled, exceptionsOffHint } from './exceptions.js';
import { appendPreloadSection, collectPreload } from '../common/preload-files.js';
import { componentArchive } from './runtime-lib.js';
import { dropCustomSections, metadataSections } from './strip-sections.js';
import { addStackCheck, stackCheckLinkArgs, stackCheckWanted } from './stack-check.js';
import { dropBssFill } from './bss-fill.js';
import { clang, clangxx, requireSetup, root, sysroot, target, toolchainDir } from '../common/toolchain.js';
import { ccUsage } from '../common/usage.js';
import { prefillCodeCache } from '../common/turbofan-maker.js';

const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');

const WASM_PAGE = 65536;
const choices = {
  malloc: ['spindle', 'dlmalloc', 'mimalloc'],
  fs: ['none', 'spindle', 'js'],
  host: ['spindle', 'wasi'],
};
const defaults = {
  malloc: 'spindle',
  fs: 'spindle',
  host: 'spindle',
  maxMemory: 1 << 30,
  stackSize: 1 << 20,
  threadStackSize: 256 << 10,
  stackCheck: true,
};

const cxxSource = /\.(cc|cpp|cxx|c\+\+|C|CC|CPP|mm)$/;
const anySource = /\.(c|i|cc|cpp|cxx|c\+\+|C|CC|CPP|m|mm)$/;
// wasi-libc's errno is a plain thread-local variable, and LLVM assumes the allocation functions
// touch only memory the program cannot see, so at -O1+ it moves `errno = 0` across a failing
// malloc and the program never sees ENOMEM. (Natively errno hides behind __errno_location().)
const errnoSafeAllocation = ['malloc', 'calloc', 'realloc', 'aligned_alloc', 'strdup', 'strndup']
  .map((f) => `-fno-builtin-${f}`);
const compileOnlyFlags = new Set(['-c', '-S', '-E', '-fsyntax-only', '-M', '-MM']);

const options = {
  '--malloc': 'an allocator', '--fs': 'a file system', '--host': 'a host', '--max-memory': 'a size', '--stack-size': 'a size',
  '--thread-stack-size': 'a size', '--preload-file': 'a file or directory', '--bare': 'switch', '--help': 'switch', '--help-clang': 'switch',
  '--initial-memory': 'a size', '--keep-names': 'switch', '--no-stack-check': 'switch', '--as-root': 'switch',
};

/** Splits Spindle's own options from the arguments that go to clang. */
export function parseArgs(args) {
  const opts = { ...defaults, clangArgs: [], bare: false, preload: [], help: false, keepNames: false, asRoot: false };
  for (let i = 0; i < args.length;) {
    const option = readOption(args, i, options);
    if (!option) { opts.clangArgs.push(args[i++]); continue; }
    const { flag, value } = option;
    i = option.next;
    switch (flag) {
      // --host=wasi: a portable module, standard imports only (runtime/portable, docs/PORTABLE.md).
      case '--malloc':
      case '--fs':
      case '--host': {
        const key = flag.slice(2);
        if (!choices[key].includes(value)) {
          throw new Error(`${flag}=${value}: choose one of ${choices[key].join(', ')}`);
        }
        opts[key] = value;
        break;
      }
      case '--max-memory': opts.maxMemory = parseSize(value, flag); opts.maxMemoryText = value; break;
      // Memory the module starts with; more is grown on demand up to --max-memory.
      case '--initial-memory': opts.initialMemory = parseSize(value, flag); break;
      case '--stack-size': opts.stackSize = parseSize(value, flag); break;
      case '--thread-stack-size': opts.threadStackSize = parseSize(value, flag); break;
      // A plain wasi-libc program with Spindle's link flags and none of its runtime, for hosts
      // other than Spindle's (the runtime imports from the "spindle" module).
      case '--bare': opts.bare = true; break;
      // Function names in the module (trap stack traces name functions) without -g's DWARF.
      case '--keep-names': opts.keepNames = true; break;
      // Every thread's C stack is checked (cli/build/stack-check.js); this leaves modules unchecked.
      case '--no-stack-check': opts.stackCheck = false; break;
      // The program is root (uid 0) and no permission is checked (docs/POSIX.md, "Permissions").
      case '--as-root': opts.asRoot = true; break;
      // Files and directory trees placed in the in-memory tree before main (docs/FILES.md).
      // As Emscripten's: `--preload-file SPEC` or `--preload-file=SPEC`.
      case '--preload-file': opts.preload.push(value); break;
      case '--help': opts.help = true; break;
      case '--help-clang': opts.clangArgs.push('--help'); break; // clang's own usage
    }
  }
  if (opts.maxMemory % WASM_PAGE) throw new Error(`--max-memory must be a multiple of 64 KiB`);
  if (opts.initialMemory !== undefined) {
    if (opts.initialMemory % WASM_PAGE) throw new Error('--initial-memory must be a multiple of 64 KiB');
    if (opts.initialMemory > opts.maxMemory) throw new Error(`--initial-memory is larger than --max-memory (${opts.maxMemory} bytes)`);
  }
  if (opts.stackSize % 16 || opts.threadStackSize % 16) throw new Error('stack sizes must be multiples of 16');
  if (opts.preload.length && (opts.fs !== 'spindle' || opts.bare)) {
    throw new Error('--preload-file needs the Spindle filesystem (--fs=spindle, not --bare)');
  }
  if (opts.host === 'wasi') checkPortable(opts);
  return opts;
}

// What a portable module cannot have: parts of the runtime that only Spindle's host serves.
function checkPortable(opts) {
  if (opts.bare) throw new Error('--host=wasi and --bare: choose one (--bare has no Spindle runtime to make portable)');
  if (opts.fs === 'js') throw new Error('--host=wasi needs --fs=spindle or --fs=none (--fs=js is served by Spindle\'s host)');
  if (opts.preload.length) throw new Error('--preload-file needs Spindle\'s host; a --host=wasi module reads files from its preopens');
}

function isLinking(clangArgs) {
  return !clangArgs.some((a) => compileOnlyFlags.has(a)) && !clangArgs.includes('--version') && !clangArgs.includes('--help') &&
    !clangArgs.some((a) => a === '-print-search-dirs' || a.startsWith('-print-'));
}

// Link-time settings applied before main by a tiny generated object (cached per value): the
// default pthread stack size (musl's __default_stacksize, read by pthread_attr_init and
// pthread_create), and a 16 KiB stdout buffer (when not a terminal) instead of wasi-libc's 1 KiB, since every
// flush is a host call (in a browser run, an HTTP request). A direct object, not an archive
// member: wasm-ld drops constructors of members nothing references.
// errno is saved around isatty (Linux programs expect 0 at main). The settings object also keeps
// runtime/core's path resolver, which gives ENOENT for "" (libc's own resolves it to the cwd).
function settingsObject(threadStackSize) {
  return configObject(`settings-v2-${threadStackSize}`, [
    '#include <errno.h>',
    '#include <stddef.h>',
    '#include <stdio.h>',
    '#include <unistd.h>',
    'int __wasilibc_find_relpath_alloc(const char *, const char **, char **, size_t *, int);',
    '__attribute__((used)) static void *spindle_keep_resolver = (void *)__wasilibc_find_relpath_alloc;',
    'extern unsigned int __default_stacksize;',
    'static char stdout_buffer[16384]; // musl ignores setvbuf\'s size without a buffer',
    '__attribute__((constructor)) static void spindle_apply_settings(void) {',
    `  __default_stacksize = ${threadStackSize}u;`,
    '  int saved_errno = errno;',
    '  if (!isatty(1)) setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);',
    '  errno = saved_errno;',
    '}']);
}

// `--as-root`: defines the flag that runtime/include/spindle/identity.h reads (weakly), so
// getuid() is 0 and the filesystem checks no permission.
function asRootObject() {
  return configObject('as-root-v1', ['#include <stdbool.h>', 'const bool spindle_link_as_root = true;']);
}

// A generated C object linked into modules, built once and cached under the toolchain.
function configObject(name, lines) {
  const dir = join(toolchainDir, 'runtime', 'config');
  const obj = join(dir, `${name}.o`);
  if (!existsSync(obj)) {
    mkdirSync(dir, { recursive: true });
    const src = join(dir, `${name}.${process.pid}.c`);
    writeFileSync(src, [...lines, ''].join('\n'));
    const tmp = `${obj}.${process.pid}`;
    const r = spawnSync(clang, [`--target=${target}`, `--sysroot=${sysroot}`, '-pthread', '-O2', '-c', src, '-o', tmp],
      { stdio: 'inherit' });
    rmSync(src, { force: true });
    if (r.status !== 0) throw new Error(`building the link-time object ${name} failed`);
    renameSync(tmp, obj);
  }
  return obj;
}

// The POSIX layer (runtime/posix, docs/POSIX.md): its headers come before the sysroot's, its
// archive before libc, and the libc functions it wraps are listed in the component.
const posixHeaders = join(root, 'runtime', 'include', 'posix');
async function posixLinkArgs() {
  const list = readFileSync(join(root, 'runtime', 'posix', 'wrapped-functions.txt'), 'utf8');
  const flags = list.split('\n').filter((l) => l && !l.startsWith('#')).flatMap((line) => {
    const real = line.startsWith('real:');
    return line.replace(/^real:/, '').split(/\s+/).filter(Boolean)
      .map((name) => (real ? `--wrap=${name},-u,${name}` : `--wrap=${name}`));
  });
  return [`-Wl,${flags.join(',')}`, await componentArchive('posix')];
}

/** The runtime's link inputs for `opts`, in clang's form (-Wl,... flags, archives); reused by cli/cargo/rust-linker.js. */
export async function runtimeLinkArgs(opts) {
  if (opts.bare) return [];
  // runtime/portable first: in a --host=wasi module it stands in for every spindle.* import
  // (docs/PORTABLE.md), so the archive members that would import them are never pulled in.
  // libsetjmp by path: cli/cargo/rust-linker.js links without the sysroot's library directory.
  const portable = opts.host === 'wasi' ? [join(sysroot, 'lib', target, 'libsetjmp.a'), await componentArchive('portable')] : [];
  // runtime/posix-ipc (--fs=spindle): pipe, poll/select, flock/lockf and fcntl's lock commands,
  // which the POSIX layer's fcntl reaches through a weak reference. It comes before the POSIX
  // layer: both define __spindle_fcntl_with_locks, the fcntl that code built with
  // runtime/include/ipc/fcntl.h calls, and the first archive to define a symbol gives it (the
  // POSIX layer's is weak). From posix-ipc it links the record locks, so a program whose own code
  // never calls fcntl (stdio's calls come from libc) does without them (docs/TOOLCHAIN.md).
  const ipc = opts.fs === 'spindle' ? [await componentArchive('posix-ipc')] : [];
  // --wrap=abort and std::terminate's name: runtime/core/abort_after_terminate.c
  const args = [...portable, '-Wl,--wrap=sysconf,--wrap=pthread_create,--wrap=_pthread_cleanup_push,--wrap=_pthread_cleanup_pop,--wrap=abort,--wrap=_ZSt9terminatev',
    ...(stackCheckWanted(opts) ? stackCheckLinkArgs : []), settingsObject(opts.threadStackSize),
    ...(opts.asRoot ? [asRootObject()] : []), ...ipc,
    ...(await posixLinkArgs()), await componentArchive('core')];
  if (opts.malloc === 'spindle') args.push(await componentArchive('alloc'));
  // runtime/core/dlmalloc_memory_view.c: refresh a thread's view of grown memory (V8).
  // runtime/core/sbrk_growth.c: dlmalloc grows memory through the same policy as Spindle's.
  if (opts.malloc === 'dlmalloc') args.push('-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=sbrk');
  // runtime/wasi binds libc's file calls to runtime/fs, so it comes first.
  // Keep runtime/wasi/files_api_service.c, whose constructor starts the files API's service thread
  // when the host asks (host/files). Nothing references it, and wasm-ld keeps constructors only
  // of objects with a live symbol (-u alone is not enough), so one tiny function is exported.
  if (opts.fs === 'spindle') {
    if (opts.host === 'spindle') args.push('-Wl,--export=__spindle_files_link');
    args.push(await componentArchive('wasi'), await componentArchive('fs'));
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
  return ['--import-memory', '--export-memory', '--shared-memory', maxMemoryFlag(opts),
    ...(opts.initialMemory !== undefined ? [`--initial-memory=${opts.initialMemory}`] : []),
    '-z', `stack-size=${opts.stackSize}`, '--fatal-warnings',
    // emnapi's wasi-threads (napi-rs, the npm hosts) allocates each new thread's slot with them
    ...(opts.host === 'wasi' ? ['--export-if-defined=malloc', '--export-if-defined=free'] : []),
    // --as-root, where the host can see it: a root host then checks no mode on the preopens
    '--export-if-defined=spindle_link_as_root'];
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

const maxMemoryFlag = (opts) => `--max-memory=${opts.maxMemory}`;

// A maximum below what the program needs to start fails here, naming the minimum (cli/build/memory-minimum.js).
function checkMaxMemory(opts, linked, compiler, argv) {
  const output = outputPath(opts.clangArgs);
  const needed = linked ? startupBytes(output) : opts.maxMemoryText && probeStartupBytes(compiler, argv, maxMemoryFlag(opts));
  if (!needed || needed <= opts.maxMemory) return;
  rmSync(output, { force: true });
  throw tooSmall(opts.maxMemoryText, needed);
}

export async function compile(args, { cxx }) {
  const opts = parseArgs(args);
  if (opts.help) { process.stdout.write(ccUsage); return 0; }
  requireSetup();
  const isCxx = cxx || opts.clangArgs.some((a) => !a.startsWith('-') && cxxSource.test(a));
  const argv = [`--target=${target}`, `--sysroot=${sysroot}`, '-pthread'];
  // The runtime's public headers (<spindle/alloc.h>, <spindle/memory.h>, ...), after the user's own.
  if (!opts.bare) argv.push('-idirafter', join(root, 'runtime', 'include'));
  // Declarations wasi-libc leaves out that runtime/posix-ipc provides (pipe, fcntl's F_SETLK...).
  if (opts.fs === 'spindle' && !opts.bare) argv.push('-isystem', join(root, 'runtime', 'include', 'ipc'));
  if (opts.clangArgs.some((a) => !a.startsWith('-') && anySource.test(a))) {
    argv.push(...errnoSafeAllocation);
    // C++ exceptions (unless -fno-exceptions) and setjmp/longjmp: cli/build/exceptions.js.
    argv.push(...exceptionCompileFlags({ cxx: isCxx, clangArgs: opts.clangArgs }));
  }
  if (!opts.bare) argv.push('-isystem', posixHeaders); // before the sysroot's (docs/POSIX.md)
  argv.push(...opts.clangArgs);
  if (isLinking(opts.clangArgs) && opts.clangArgs.length > 0) {
    argv.push(...exceptionLinkFlags({ cxx: isCxx, clangArgs: opts.clangArgs }));
    argv.push(...(await runtimeLinkArgs(opts)));
    // <signal.h> turns on the emulated signals in the POSIX layer (runtime/include/posix/signal.h).
    if (!opts.bare) argv.push('-lwasi-emulated-signal');
    argv.push(`-Wl,${moduleLinkerFlags(opts).join(',')}`);
    // Lean by default: the DWARF of -O2 code is most of a small module's bytes (docs/TOOLCHAIN.md).
    // Without DWARF, the call, global and address operands wasm-ld fills in also shrink from
    // their padded 5-byte form to their real length (8% of the threaded hello world).
    if (!wantsDebugInfo(opts.clangArgs)) argv.push('-Wl,--strip-debug,--compress-relocations');
  }
  const linking = isLinking(opts.clangArgs) && opts.clangArgs.length > 0;
  if (opts.preload.length && !linking) throw new Error('--preload-file applies when linking a module');
  // Bad specs fail before clang runs; the attributes packed are those of this moment.
  const preloadEntries = opts.preload.length ? collectPreload(opts.preload, '--preload-file') : null;
  // With exceptions turned off, clang's output is read to add which switch did it.
  const explainExceptions = isCxx && !exceptionsEnabled(opts.clangArgs);
  const r = spawnSync(isCxx ? clangxx : clang, argv, { stdio: ['inherit', 'inherit', explainExceptions ? 'pipe' : 'inherit'] });
  if (r.error) throw new Error(`cannot run ${isCxx ? clangxx : clang}: ${r.error.message}`);
  if (explainExceptions) {
    const stderr = r.stderr.toString();
    process.stderr.write(stderr + (r.status !== 0 && exceptionsOffHint(stderr, opts.clangArgs) || ''));
  }
  // What follows reads and rewrites the module: not where it went to no file (-o /dev/null).
  const output = outputPath(opts.clangArgs);
  const linked = r.status === 0 && linking && isPlainFile(output);
  if (linking && (linked || r.status !== 0)) checkMaxMemory(opts, linked, isCxx ? clangxx : clang, argv);
  if (linked && stackCheckWanted(opts)) addStackCheck(output);
  if (linked && !opts.bare) dropBssFill(output);
  if (linked && !wantsDebugInfo(opts.clangArgs)) {
    dropCustomSections(output, metadataSections.filter((s) => !(opts.keepNames && s === 'name')));
  }
  if (linked && opts.preload.length) appendPreloadSection(output, preloadEntries);
  if (linked && !opts.bare) await prefillCodeCache(output);
  return r.status ?? 1;
}

const isPlainFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

